import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type {} from '../core-plugin.js';
import { registerClosingAnswer } from './closing.js';
import { registerErrorHandler } from './error-handler.js';
import { registerAccessLog } from './logging.js';
import { openApiTransform } from './openapi.js';
import { registerSecurityHeaders } from './security-headers.js';

/**
 * The answers every route shares: errors in Russian, the closing answer, security headers; the
 * access log; and cookies (`request.cookies`, `reply.setCookie`), unsigned: the one cookie, the
 * Yandex flow id (modules/yandex/routes.ts), is a random secret checked against its hash.
 */
export const httpPlugin = fp(
  async (app) => {
    await app.register(fastifyCookie);
    registerErrorHandler(app);
    registerClosingAnswer(app);
    registerSecurityHeaders(app, app.deps.config);
    registerAccessLog(app, app.deps.config);
  },
  { name: 'http', dependencies: ['core'] },
);

/** The OpenAPI description of every route registered after it, served at `/docs`. */
export const openApiPlugin = fp(
  async (app) => {
    await app.register(fastifySwagger, {
      openapi: {
        info: { title: 'Личный кабинет: API', version: '1.0.0' },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer' },
            siblingApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          },
        },
      },
      transform: openApiTransform,
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });
  },
  { name: 'openapi', dependencies: ['core'] },
);
