import { errorAnswerSchema } from '@portal/contracts/common';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A request body for the OpenAPI document only, as JSON Schema, where the route reads the
     * body itself (a multipart upload); its content types are the route's `consumes`. Fastify
     * does not validate it.
     */
    openApiBody?: Record<string, unknown>;
  }
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** Where the browser goes next: the header every redirect answer carries. */
const LOCATION_HEADER = { Location: { type: 'string', description: 'Куда уходит браузер' } };

/**
 * The routes' zod schemas made into the OpenAPI document (jsonSchemaTransform), plus what a zod
 * schema cannot say: an answer declared `z.null()` has no body at all (a redirect: documented
 * without content, with its Location header), and `config.openApiBody` documents a body the route
 * reads itself. apps/server/src/http/openapi.test.ts holds the document to the routes.
 */
export function openApiTransform(input: TransformInput) {
  const output = jsonSchemaTransform(input);
  const declared = (input.schema as FastifySchema | undefined)?.response;
  const schema = output.schema as FastifySchema & { response?: Record<string, unknown> };
  if (declared && schema.response) {
    for (const [status, answer] of Object.entries(declared as Record<string, unknown>)) {
      if (!(answer instanceof z.ZodNull)) continue;
      schema.response[status] = {
        type: 'null',
        description: answer.description ?? 'Без тела',
        ...(status.startsWith('3') ? { headers: LOCATION_HEADER } : {}),
      };
    }
  }
  const body = input.route.config?.openApiBody;
  if (body) schema.body = body;
  return output;
}

/**
 * The refusals a route documents, each `{ message, errors?, reason? }`: `errorAnswers(400, 401, 429)`.
 * A refusal with its own description is written out beside it instead.
 */
export function errorAnswers<Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof errorAnswerSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorAnswerSchema])) as Record<
    Status,
    typeof errorAnswerSchema
  >;
}
