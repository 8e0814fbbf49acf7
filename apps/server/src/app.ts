import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Clock, systemClock } from './adapters/clock.js';
import { RedisRevocationBus } from './adapters/revocation-bus.js';
import { createFileStorage, type FileStorage } from './adapters/storage.js';
import type { FetchLike } from './adapters/tbank/client.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/database.js';
import { UserReadCache } from './db/user-reads.js';
import { answerSerializerCompiler } from './http/answer-serializer.js';
import { registerClosingAnswer } from './http/closing.js';
import { answerFrameworkError, registerErrorHandler } from './http/error-handler.js';
import { type LogStream, loggerOptions } from './http/logging.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { schedulePeriodicJob } from './jobs/periodic-job.js';
import { AUTH_PREFIX, authRoutes } from './modules/auth/routes.js';
import { declarePortalOnlyAnswers, SessionStore } from './modules/auth/sessions.js';
import {
  createIdentityDeps,
  type IdentityDeps,
  type IdentityOptions,
} from './modules/auth/wiring.js';
import { devMailRoutes } from './modules/dev-mail/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { purgeExpired } from './modules/housekeeping/purge.js';
import { opsRoutes } from './modules/ops/routes.js';
import {
  createPaymentsDeps,
  type PaymentsDeps,
  registerPayments,
} from './modules/payments/register.js';
import { profileRoutes } from './modules/profile/routes.js';
import { securityRoutes } from './modules/security/routes.js';
import { registerServers } from './modules/servers/register.js';
import { telegramRoutes } from './modules/telegram/routes.js';
import { twoFactorRoutes } from './modules/two-factor/routes.js';
import { TwoFactorService } from './modules/two-factor/two-factor-service.js';
import { uploadRoutes } from './modules/uploads/routes.js';
import { yandexRoutes } from './modules/yandex/routes.js';
import { registerWebApp } from './web/serve-web.js';

/** Spent codes, old letters and ended sessions are purged this often (modules/housekeeping). */
const HOUSEKEEPING_EVERY_S = 60 * 60;

// Messages a schema does not word itself (a wrong type, say) are Russian too.
z.config(z.locales.ru());

/** Everything a module may use; adapters are swapped here by tests. */
export interface AppDeps extends IdentityDeps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  /** Per-process memory of each account's frequent reads, dropped when the account changes. */
  userReads: UserReadCache;
  payments: PaymentsDeps;
  twoFactor: TwoFactorService;
  storage: FileStorage;
}

export interface BuildAppOptions extends IdentityOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Outbound HTTP of the payment path (provider API, sandbox notifications). */
  paymentFetch?: FetchLike;
  storage?: FileStorage;
  logStream?: LogStream;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

/** Builds the whole server without listening; server.ts listens, tests call `app.inject`. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    trustProxy: config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : false,
    bodyLimit: 64 * 1024,
    // The default 64 KiB body limit and these keep hostile clients from holding the process.
    connectionTimeout: 30_000,
    requestTimeout: 60_000,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: answerFrameworkError,
    // http/closing.ts answers instead, in Russian.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler);

  const userReads = new UserReadCache(database);
  await userReads.start();
  app.addHook('onClose', () => userReads.stop());
  const sessions = new SessionStore(
    database.db,
    clock,
    config.REDIS_URL
      ? new RedisRevocationBus(config.REDIS_URL, (error) =>
          app.log.warn({ err: error }, 'revocation bus unavailable, session cache bypassed'),
        )
      : undefined,
    userReads,
  );
  app.addHook('onClose', () => sessions.close());
  const identity = await createIdentityDeps(
    app,
    { config, db: database.db, clock, sessions },
    options,
  );
  const twoFactor = new TwoFactorService(database.db, clock, {
    secretKey: config.SECRET_KEY,
    issuer: config.BRAND_NAME,
  });
  const deps: AppDeps = {
    ...identity,
    config,
    database,
    db: database.db,
    clock,
    payments: createPaymentsDeps(config, () => app, { fetch: options.paymentFetch }),
    sessions,
    userReads,
    twoFactor,
    // The authenticator answers login's second-factor port (auth/second-factor.ts).
    secondFactor: options.secondFactor ?? twoFactor,
    storage: options.storage ?? createFileStorage(config),
  };
  app.decorate('deps', deps);
  app.decorateRequest('session', null);

  registerErrorHandler(app);
  registerClosingAnswer(app);
  registerSecurityHeaders(app, config);
  declarePortalOnlyAnswers(app);

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
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });

  await app.register(healthRoutes);
  await app.register(opsRoutes);
  await registerPayments(app, { fetch: options.paymentFetch });
  await registerServers(app);
  schedulePeriodicJob(app, 'housekeeping', HOUSEKEEPING_EVERY_S, () =>
    purgeExpired(database.db, clock.now()),
  );
  await app.register(authRoutes, { prefix: AUTH_PREFIX });
  await app.register(devMailRoutes);
  await app.register(twoFactorRoutes);
  await app.register(securityRoutes);
  await app.register(uploadRoutes);
  await app.register(telegramRoutes);
  await app.register(profileRoutes, { prefix: AUTH_PREFIX });
  await app.register(yandexRoutes);

  await registerWebApp(app, config);
  return app;
}
