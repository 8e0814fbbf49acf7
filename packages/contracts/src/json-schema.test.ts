import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as auth from './auth';
import * as common from './common';
import * as profile from './profile';
import * as security from './security';
import * as services from './services';
import * as telegram from './telegram';
import * as wallet from './wallet';
import * as webSettings from './web-settings';
import * as yandex from './yandex';

// The server's type provider turns every route schema into OpenAPI; a schema
// zod cannot describe (a transform, a custom type) would break /docs.
const modules = {
  auth,
  common,
  profile,
  security,
  services,
  telegram,
  wallet,
  webSettings,
  yandex,
};
const schemas = Object.entries(modules).flatMap(([moduleName, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => value instanceof z.ZodType)
    .map(([name, schema]) => [`${moduleName}.${name}`, schema as z.ZodType] as const),
);

describe('every schema has a JSON Schema', () => {
  it('finds the schemas', () => {
    expect(schemas.length).toBeGreaterThan(50);
  });

  it.each(schemas)('%s', (_name, schema) => {
    expect(z.toJSONSchema(schema, { io: 'input' })).toBeTypeOf('object');
    expect(z.toJSONSchema(schema, { io: 'output' })).toBeTypeOf('object');
  });
});
