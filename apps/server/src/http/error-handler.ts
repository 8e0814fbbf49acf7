import {
  BAD_JSON,
  BAD_URL,
  INTERNAL_ERROR,
  INVALID_INPUT,
  PAYLOAD_TOO_LARGE,
  SERVICE_UNAVAILABLE,
  TOO_MANY_ATTEMPTS,
  UNSUPPORTED_CONTENT_TYPE,
  URL_TOO_LONG,
} from '@portal/contracts/messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { AppError } from './app-error.js';

// Connection-level failures of the database: the request may succeed later, so 503, not 500.
// 57P01-57P03: shut down, crashed, starting up; class 08: connection exceptions; 57014: the
// statement ran past its deadline (database.ts).
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_ERRNO.has(code)) return true;
    const message = (current as { message?: unknown }).message;
    if (
      typeof message === 'string' &&
      // "not queryable": a transaction whose connection died fails again on its ROLLBACK, and
      // that is the error that reaches here.
      /Connection terminated|timeout exceeded when trying to connect|is not queryable|Query read timeout/i.test(
        message,
      )
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * PostgreSQL's "data exception" class (SQLSTATE 22xxx): a value the database cannot take, such as
 * text with a NUL character (22021) or a malformed date or number in a parameter. The value came
 * from the request, so the request is refused; the transaction it ran in has rolled back.
 */
function isDatabaseDataException(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Field path → messages: the `errors` of `{ message, errors? }`, one list of messages a field. */
function fieldErrors(error: FastifyError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return errors;
  for (const issue of error.validation) {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
    errors[field] ??= [];
    errors[field].push(issue.message ?? INVALID_INPUT);
  }
  return errors;
}

/**
 * Fastify's `frameworkErrors` option: the router's own refusals (a malformed percent-escape in
 * the path, a path parameter over `maxParamLength`) never reach setErrorHandler, and Fastify's
 * default answer is English with its internal error code and the path echoed back.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(414).send({ message: URL_TOO_LONG });
  }
  return reply.status(400).send({ message: BAD_URL });
}

/** One handler for every failure: Russian messages, no stack traces, 5xx details only in logs. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // An outside part failed: what failed goes to the log, the person reads the message.
      if (error.statusCode >= 500 && error.cause) {
        request.log.warn({ err: error.cause }, error.message);
      }
      if (error.details.retryAfter !== undefined) {
        reply.header('Retry-After', String(Math.max(1, Math.ceil(error.details.retryAfter))));
      }
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(error.details.errors ? { errors: error.details.errors } : {}),
        ...(error.details.reason ? { reason: error.details.reason } : {}),
        ...error.details.fields,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrors(error);
      const first = Object.values(errors)[0]?.[0];
      return reply.status(400).send({ message: first ?? INVALID_INPUT, errors });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response does not match its schema');
      return reply.status(500).send({ message: INTERNAL_ERROR });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).send({ message: SERVICE_UNAVAILABLE });
    }
    if (isDatabaseDataException(error)) {
      request.log.warn({ err: error }, 'the database refused a value of the request');
      return reply.status(400).send({ message: INVALID_INPUT });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.status(413).send({ message: PAYLOAD_TOO_LARGE });
    if (status === 415) return reply.status(415).send({ message: UNSUPPORTED_CONTENT_TYPE });
    if (status === 429) return reply.status(429).send({ message: TOO_MANY_ATTEMPTS });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, bad content length, ...) carry English text.
      return reply.status(status).send({ message: BAD_JSON });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: INTERNAL_ERROR });
  });
}
