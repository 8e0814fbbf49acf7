import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import {
  createMailTransport,
  type Mailer,
  MailOutbox,
  type MailTransport,
} from '../../adapters/mail.js';
import { createRateLimiter, type RateLimiter } from '../../adapters/rate-limit.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { AuthService } from './auth-service.js';
import { HandOffService } from './hand-off.js';
import { LoginThrottle } from './login-throttle.js';
import { OneTimeCodes } from './one-time-codes.js';
import { noSecondFactor, type SecondFactor } from './second-factor.js';
import type { SessionStore } from './sessions.js';

/** The identity core's part of `app.deps` (issue 3). */
export interface IdentityDeps {
  /** Outgoing mail: `mail.enqueue(letter, tx)`; see adapters/mail.ts. */
  mail: Mailer & { kickIfEnqueued(): void };
  /** Per-address counters (memory, or Redis with REDIS_URL); see adapters/rate-limit.ts. */
  rateLimiter: RateLimiter;
  /** Six-digit codes for every purpose; see modules/auth/one-time-codes.ts. */
  codes: OneTimeCodes;
  /** What login asks about a second factor; replace it to plug in the authenticator. */
  secondFactor: SecondFactor;
  loginThrottle: LoginThrottle;
  auth: AuthService;
  handOff: HandOffService;
}

/** Adapters tests (or other modules) may pass to `buildApp` instead of the configured ones. */
export interface IdentityOptions {
  mailTransport?: MailTransport;
  rateLimiter?: RateLimiter;
  secondFactor?: SecondFactor;
}

/**
 * Builds the identity deps and hooks them into the app's life: the mail sender starts when the
 * app is ready, is woken after every response that enqueued a letter, and stops (waiting for the
 * letter in flight) when the app closes.
 */
export async function createIdentityDeps(
  app: FastifyInstance,
  base: { config: Config; db: Db; clock: Clock; sessions: SessionStore },
  options: IdentityOptions = {},
): Promise<IdentityDeps> {
  const { config, db, clock, sessions } = base;
  const log = app.log.child({ module: 'auth' });
  const mail = new MailOutbox(
    db,
    clock,
    options.mailTransport ?? createMailTransport(config),
    app.log.child({ module: 'mail' }),
    { firstRetryMs: config.MAIL_FIRST_RETRY_SECONDS * 1000 },
  );
  const rateLimiter =
    options.rateLimiter ??
    (await createRateLimiter(config, clock, (error) =>
      log.warn({ err: error }, 'rate limiter unavailable, not limiting'),
    ));
  const codes = new OneTimeCodes(db, clock, config.SECRET_KEY);
  const loginThrottle = new LoginThrottle(db, clock);
  const auth = new AuthService({
    config,
    db,
    clock,
    sessions,
    codes,
    mail,
    rateLimiter,
    loginThrottle,
    secondFactor: () => app.deps.secondFactor,
  });
  const handOff = new HandOffService(db, clock, sessions, config.SSO_ALLOWED_ORIGINS);

  app.addHook('onResponse', async () => {
    mail.kickIfEnqueued();
  });
  app.addHook('onReady', async () => {
    mail.start();
    app.log.info(`Письма: ${mail.describe()}`);
  });
  app.addHook('onClose', async () => {
    await mail.stop();
    await rateLimiter.close();
  });

  return {
    mail,
    rateLimiter,
    codes,
    secondFactor: options.secondFactor ?? noSecondFactor,
    loginThrottle,
    auth,
    handOff,
  };
}
