import Fastify, { type FastifyInstance, LogController, type onRouteHookHandler } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FetchLike } from './adapters/tbank/client.js';
import { type CoreOptions, corePlugin } from './core-plugin.js';
import { answerSerializerCompiler } from './http/answer-serializer.js';
import { answerFrameworkError } from './http/error-handler.js';
import { httpPlugin, openApiPlugin } from './http/http-plugin.js';
import { type LogStream, lazyChildLogger, loggerOptions } from './http/logging.js';
import { accountDataPlugin } from './modules/account-data/plugin.js';
import { accountsPlugin } from './modules/accounts/plugin.js';
import { authPlugin, type IdentityOptions } from './modules/auth/plugin.js';
import { devMailPlugin } from './modules/dev-mail/plugin.js';
import { healthPlugin } from './modules/health/plugin.js';
import { housekeepingPlugin } from './modules/housekeeping/plugin.js';
import { metricsPlugin } from './modules/metrics/plugin.js';
import { oidcPlugin } from './modules/oidc/plugin.js';
import { operatorPlugin } from './modules/operator/plugin.js';
import { recordPortalStart } from './modules/operator/portal-runtime.js';
import { opsPlugin } from './modules/ops/plugin.js';
import { passkeysPlugin } from './modules/passkeys/plugin.js';
import { paymentSandboxPlugin } from './modules/payment-sandbox/plugin.js';
import { paymentsPlugin } from './modules/payments/plugin.js';
import { profilePlugin } from './modules/profile/plugin.js';
import { securityPlugin } from './modules/security/plugin.js';
import { securityLogPlugin } from './modules/security-log/plugin.js';
import { serversPlugin } from './modules/servers/plugin.js';
import { staffPlugin } from './modules/staff/plugin.js';
import { telegramPlugin } from './modules/telegram/plugin.js';
import {
  type TwoFactorOptions,
  twoFactorPlugin,
  twoFactorRoutesPlugin,
} from './modules/two-factor/plugin.js';
import { uploadsPlugin } from './modules/uploads/plugin.js';
import { yandexPlugin } from './modules/yandex/plugin.js';
import { webAppPlugin } from './web/serve-web.js';

// Messages a schema does not word itself (a wrong type, say) are Russian too.
z.config(z.locales.ru());

/** What the app is built from; tests swap adapters here. */
export interface BuildAppOptions extends CoreOptions, IdentityOptions, TwoFactorOptions {
  /** Outbound HTTP of the payment path (provider API, sandbox notifications). */
  paymentFetch?: FetchLike;
  logStream?: LogStream;
  /** Sees every route as it is registered (the OpenAPI test compares them with the document). */
  onRoute?: onRouteHookHandler;
}

/**
 * Builds the whole server without listening; server.ts listens, tests call `app.inject`. Each
 * module is a named plugin that declares the plugins it needs and builds its own part of
 * `app.deps` (deps.ts); the order below satisfies those declarations (Fastify checks them).
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    // http/logging.ts writes the access log instead.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
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

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler);

  await app.register(corePlugin, options);
  await app.register(accountsPlugin);
  // Told to the operator's tool, a process with its own environment: a portal with Redis
  // remembers sessions, so the tool must not end them without Redis (modules/operator). Hooked
  // here, where modules are put together, since the core imports no module.
  app.addHook('onListen', async () => {
    const { database, redis, clock } = app.deps;
    await recordPortalStart(database.db, { usesRedis: redis !== null, at: clock.now() });
  });
  await app.register(httpPlugin);
  // Before every route, so its request hook times them all.
  await app.register(metricsPlugin);
  await app.register(openApiPlugin);
  // Before every module that records into it.
  await app.register(securityLogPlugin);
  // The authenticator first: login takes it as its second-factor port.
  await app.register(twoFactorPlugin, options);
  await app.register(authPlugin, options);
  await app.register(healthPlugin);
  await app.register(opsPlugin);
  await app.register(paymentSandboxPlugin, { fetch: options.paymentFetch });
  await app.register(paymentsPlugin, { fetch: options.paymentFetch });
  // After payments: its staff money service refunds and reconciles through them.
  await app.register(operatorPlugin);
  await app.register(serversPlugin);
  await app.register(devMailPlugin);
  await app.register(twoFactorRoutesPlugin);
  await app.register(passkeysPlugin);
  await app.register(securityPlugin);
  await app.register(uploadsPlugin);
  await app.register(telegramPlugin);
  await app.register(profilePlugin);
  await app.register(yandexPlugin);
  await app.register(accountDataPlugin);
  // After account-data: a sign-in to a site is refused while the account waits for deletion;
  // after security: a site's sign-in is a row of its devices list.
  await app.register(oidcPlugin);
  // After account-data (an account's page shows its deletion) and the factors' modules.
  await app.register(staffPlugin);
  // After account-data: its hourly run also erases the accounts whose deletion is due.
  await app.register(housekeepingPlugin);
  await app.register(webAppPlugin);
  return app;
}
