import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import {
  asHeaderValue,
  CONTENT_TYPES,
  hostileHeaderValue,
  hostileKey,
  hostileNumber,
  hostilePathSegment,
  hostileString,
  hostileValue,
  objectWith,
  rawBodies,
} from './hostile-values.js';

/** Now and then `value`, mostly nothing. */
const sometimes = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });

/** The subset of JSON Schema the OpenAPI document of fastify-type-provider-zod uses. */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
}

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema: JsonSchema;
}

export interface RouteSpec {
  method: string;
  /** OpenAPI form, `/devices/{id}`. */
  path: string;
  body: JsonSchema | undefined;
  parameters: Parameter[];
  /** Security scheme names of the route ('bearer', 'siblingApiKey'). */
  security: string[];
}

/** Every operation of the app's OpenAPI document (GET /docs/json). */
export async function routesOf(app: FastifyInstance): Promise<RouteSpec[]> {
  const answer = await app.inject({ method: 'GET', url: '/docs/json' });
  const document = answer.json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
          parameters?: Parameter[];
          security?: Record<string, unknown>[];
        }
      >
    >;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      body: operation.requestBody?.content?.['application/json']?.schema,
      parameters: operation.parameters ?? [],
      security: (operation.security ?? []).flatMap((item) => Object.keys(item)),
    })),
  );
}

/** Real values the generators mix in, so that some requests get past "not found". */
export interface KnownValues {
  emails: string[];
  userNames: string[];
  passwords: string[];
  /** Ids of users, sessions, services: anything a path or body may name. */
  ids: string[];
  externalIds: string[];
  urls: string[];
}

/** How the request authenticates; the test turns it into headers with live credentials. */
export type AuthMode =
  | { kind: 'anonymous' }
  | { kind: 'session' }
  | { kind: 'session-and-api-key' }
  | { kind: 'api-key' }
  | { kind: 'forged'; authorization: string; apiKey: string | undefined };

export interface HostileRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload: string | Buffer | undefined;
  remoteAddress: string;
  auth: AuthMode;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A plausible value for a field, judged by its schema and its name. */
function plausibleString(
  name: string,
  schema: JsonSchema,
  known: KnownValues,
): fc.Arbitrary<string> {
  const lower = name.toLowerCase();
  if (schema.enum) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.format === 'uuid' || lower === 'id' || lower.endsWith('userid')) {
    return fc.oneof(fc.uuid(), fc.constantFrom(...known.ids));
  }
  if (lower.includes('password')) {
    return fc.constantFrom(...known.passwords, 'Abcdef12', 'Abc1', 'nouppercase1', 'Пароль123A');
  }
  if (lower === 'usernameoremail') return fc.constantFrom(...known.emails, ...known.userNames);
  if (lower.includes('email')) {
    return fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...known.emails) },
      { weight: 1, arbitrary: fc.emailAddress() },
    );
  }
  if (lower === 'externalid') return fc.oneof(fc.constantFrom(...known.externalIds), fc.string());
  if (lower.includes('code') || schema.pattern === '^\\d{6}$') return fc.stringMatching(/^\d{6}$/);
  if (schema.format === 'uri' || lower.endsWith('url') || lower === 'link') {
    return fc.oneof(fc.webUrl(), fc.constantFrom(...known.urls));
  }
  if (schema.pattern?.startsWith('^') && schema.pattern.endsWith('$')) {
    return fc.stringMatching(new RegExp(schema.pattern));
  }
  const minLength = schema.minLength ?? 0;
  return fc.string({
    minLength,
    maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 24, 24)),
  });
}

function plausibleNumber(schema: JsonSchema): fc.Arbitrary<number> {
  const low = (schema.minimum ?? -10) + (schema.exclusiveMinimum === true ? 1 : 0);
  return fc.integer({ min: low, max: Math.max(low, schema.maximum ?? 200_000) });
}

/** Mostly values the schema accepts, now and then a hostile one in their place. */
function valueFor(schema: JsonSchema, name: string, known: KnownValues): fc.Arbitrary<unknown> {
  let plausible: fc.Arbitrary<unknown>;
  if (schema.anyOf) {
    plausible = fc.oneof(...schema.anyOf.map((branch) => valueFor(branch, name, known)));
  } else if (schema.type === 'object' || schema.properties) {
    plausible = objectFor(schema, known);
  } else if (schema.type === 'array') {
    plausible = fc.array(valueFor(schema.items ?? {}, name, known), { maxLength: 3 });
  } else if (schema.type === 'string') {
    plausible = plausibleString(name, schema, known);
  } else if (schema.type === 'number' || schema.type === 'integer') {
    plausible = plausibleNumber(schema);
  } else if (schema.type === 'boolean') {
    plausible = fc.boolean();
  } else {
    return hostileValue;
  }
  // Mostly plausible, so that a request usually carries one or two hostile parts, not only those.
  return fc.oneof(
    { weight: 9, arbitrary: plausible },
    { weight: 1, arbitrary: schema.type === 'number' ? hostileNumber : hostileValue },
  );
}

function objectFor(schema: JsonSchema, known: KnownValues): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [key, valueFor(property, key, known)]),
  );
  const required = (schema.required ?? []).filter((key) => key in properties);
  return fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: fc.record(model, { requiredKeys: required }) },
        { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
      ),
      sometimes(objectWith(hostileKey, hostileValue, 2)),
    )
    .map(([fields, extra]) => {
      const object: Record<string, unknown> = { ...fields };
      for (const [key, value] of Object.entries(extra ?? {})) {
        Object.defineProperty(object, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return object;
    });
}

/** A query value from any generated value (an object may carry a non-callable `toString`). */
function asText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** Query parameters the route knows (plausible or hostile values, repeated keys) and some it does not. */
function queryFor(route: RouteSpec, known: KnownValues): fc.Arbitrary<string> {
  const declared = route.parameters.filter((parameter) => parameter.in === 'query');
  const value = (parameter: Parameter) =>
    fc.oneof(
      { weight: 6, arbitrary: valueFor(parameter.schema, parameter.name, known).map(asText) },
      { weight: 1, arbitrary: hostileString },
    );
  const pairs = fc.tuple(
    ...declared.map((parameter) =>
      fc
        .option(
          fc.oneof(
            { weight: 6, arbitrary: value(parameter).map((item) => [item]) },
            // A repeated key arrives as an array.
            { weight: 1, arbitrary: fc.array(value(parameter), { minLength: 2, maxLength: 3 }) },
          ),
          { freq: 3 },
        )
        .map((values) => (values ?? []).map((item) => [parameter.name, item] as const)),
    ),
    sometimes(fc.array(fc.tuple(hostileKey, hostileString), { minLength: 1, maxLength: 2 })).map(
      (extra) => extra ?? [],
    ),
  );
  const rawPieces = sometimes(
    fc.array(fc.constantFrom('%', '%FF', '%zz', '&&', '=', 'a[b][c]=1', '__proto__[x]=1'), {
      minLength: 1,
      maxLength: 2,
    }),
  ).map((pieces) => pieces ?? []);
  return fc.tuple(pairs, rawPieces, fc.boolean()).map(([groups, raw, encodeKeys]) => {
    const parts = groups
      .flat()
      .map(
        ([key, item]) =>
          `${encodeKeys ? encodeURIComponent(key) : key.replaceAll(/[#&=?%\s]/g, '')}=${encodeURIComponent(item.replaceAll(/[\uD800-\uDFFF]/g, ''))}`,
      );
    const query = [...parts, ...raw].join('&');
    return query ? `?${query}` : '';
  });
}

function pathFor(route: RouteSpec, known: KnownValues): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  const segment = (name: string) => {
    const schema = route.parameters.find((p) => p.in === 'path' && p.name === name)?.schema ?? {};
    return fc.oneof(
      {
        weight: 2,
        arbitrary: plausibleString(name, schema, known).map((value) =>
          encodeURIComponent(value.replaceAll(/[\uD800-\uDFFF]/g, '')),
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom(...known.ids) },
      { weight: 2, arbitrary: hostilePathSegment },
    );
  };
  return fc.tuple(...names.map(segment)).map((values) => {
    let path = route.path;
    names.forEach((name, index) => {
      path = path.replace(`{${name}}`, values[index] || 'x');
    });
    return path;
  });
}

/** A multipart body with odd parts: file names, types, sizes, a real PNG signature or none. */
const multipartBody = fc
  .tuple(
    fc.constantFrom('file', 'avatar', '', '__proto__'),
    hostileString.map((value) => asHeaderValue(value).replaceAll('"', '')),
    fc.constantFrom('image/png', 'image/jpeg', 'text/html', 'image/svg+xml', ''),
    fc.oneof(
      fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)),
      fc
        .uint8Array({ maxLength: 64 })
        .map((bytes) =>
          Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), bytes]),
        ),
      fc.constant(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')),
    ),
    fc.boolean(),
  )
  .map(([field, fileName, type, content, closed]) =>
    Buffer.concat([
      Buffer.from(
        `--b\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
          `${type ? `Content-Type: ${type}\r\n` : ''}\r\n`,
      ),
      content,
      Buffer.from(closed ? '\r\n--b--\r\n' : ''),
    ]),
  );

type Body = { payload: string | Buffer | undefined; contentType: string | undefined };

function bodyFor(route: RouteSpec, known: KnownValues): fc.Arbitrary<Body> {
  const fieldNames = Object.keys(route.body?.properties ?? {});
  const json = (value: fc.Arbitrary<unknown>) =>
    value.map((item) => JSON.stringify(item) ?? 'null');
  const contentType = fc.oneof(
    { weight: 10, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  const schemaBody = route.body
    ? valueFor(route.body, route.body.maxLength === 254 ? 'email' : '', known)
    : hostileValue;
  return fc
    .oneof(
      {
        weight: route.body ? 16 : 2,
        arbitrary: fc.record({ payload: json(schemaBody), contentType }),
      },
      { weight: 2, arbitrary: fc.record({ payload: json(hostileValue), contentType }) },
      { weight: 4, arbitrary: fc.record({ payload: rawBodies(fieldNames), contentType }) },
      {
        weight: 1,
        arbitrary: fc.record({
          payload: multipartBody,
          contentType: fc.constantFrom('multipart/form-data; boundary=b', 'multipart/form-data'),
        }),
      },
      {
        weight: route.body ? 2 : 8,
        arbitrary: fc.record({
          payload: fc.constant(undefined),
          contentType: fc.option(fc.constantFrom(...CONTENT_TYPES, 'application/json')),
        }),
      },
    )
    .map((body) => ({ payload: body.payload, contentType: body.contentType ?? undefined }));
}

function authFor(route: RouteSpec): fc.Arbitrary<AuthMode> {
  const forged = fc.record({
    kind: fc.constant('forged' as const),
    authorization: fc.oneof(
      fc.constantFrom('Bearer', 'Bearer ', 'Basic YTpi', 'bearer null', 'Bearer undefined'),
      hostileHeaderValue.map((value) => `Bearer ${value}`),
      hostileHeaderValue,
    ),
    apiKey: fc.option(hostileHeaderValue, { nil: undefined }),
  });
  const sibling = route.security.includes('siblingApiKey');
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'anonymous' as const }) },
    { weight: sibling ? 1 : 5, arbitrary: fc.constant({ kind: 'session' as const }) },
    { weight: sibling ? 5 : 1, arbitrary: fc.constant({ kind: 'api-key' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'session-and-api-key' as const }) },
    { weight: 2, arbitrary: forged },
  );
}

/** Extra headers a hostile client adds, each one now and then. */
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record({
    accept: sometimes(fc.constantFrom('application/json', 'text/html', '*/*', 'image/png', '')),
    'idempotency-key': sometimes(
      fc.oneof(fc.stringMatching(/^[A-Za-z0-9_.:-]{1,128}$/), hostileHeaderValue),
    ),
    'x-forwarded-for': sometimes(fc.oneof(fc.ipV4(), hostileHeaderValue)),
    'content-encoding': sometimes(fc.constantFrom('gzip', 'br', 'identity', 'x')),
    'accept-language': sometimes(hostileHeaderValue),
    'user-agent': sometimes(hostileHeaderValue),
    'x-request-id': sometimes(hostileHeaderValue),
  })
  .map((headers) =>
    Object.fromEntries(
      Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
  );

/** One random, hostile request to `route` (now and then with another method). */
export function requestFor(route: RouteSpec, known: KnownValues): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      path: pathFor(route, known),
      query: queryFor(route, known),
      body: bodyFor(route, known),
      headers: extraHeaders,
      remoteAddress: fc.ipV4(),
      auth: authFor(route),
    })
    .map(({ method, path, query, body, headers, remoteAddress, auth }) => ({
      method,
      url: `${path}${query}`,
      headers: {
        ...headers,
        ...(body.contentType !== undefined ? { 'content-type': body.contentType } : {}),
      },
      // A GET or OPTIONS with a body is refused by the inject helper itself, not by the app.
      payload: method === 'GET' || method === 'OPTIONS' ? undefined : body.payload,
      remoteAddress,
      auth,
    }));
}
