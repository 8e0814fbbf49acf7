import fp from 'fastify-plugin';
import {
  createMailTransport,
  type Mailer,
  MailOutbox,
  type MailTransport,
} from '../../adapters/mail.js';
import { RateLimiter } from '../../adapters/rate-limit.js';
import type {} from '../../core-plugin.js';
import type {} from '../metrics/plugin.js';
import type {} from '../security-log/plugin.js';
import { AuthService } from './auth-service.js';
import { authData } from './data-owner.js';
import { HandOffService } from './hand-off.js';
import { mailLockNotices } from './lock-notices.js';
import { LoginThrottle } from './login-throttle.js';
import { OneTimeCodes } from './one-time-codes.js';
import { AUTH_PREFIX, authRoutes } from './routes.js';
import type { SecondFactor } from './second-factor.js';
import { SignInPolicy } from './sign-in-policy.js';

/** The identity core's part of `app.deps`, which the other modules build on. */
export interface IdentityDeps {
  /**
   * Outgoing mail: `mail.enqueue(letter, tx)`; other items through the same retried loop:
   * `mail.enqueueItem(kind, payload, tx)`, delivered by `mail.deliverKind`. See adapters/mail.ts.
   */
  mail: Mailer & Pick<MailOutbox, 'kickIfEnqueued' | 'enqueueItem' | 'deliverKind'>;
  /** Per-address counters (memory, or Redis with REDIS_URL); see adapters/rate-limit.ts. */
  rateLimiter: RateLimiter;
  /** Six-digit codes for every purpose; see modules/auth/one-time-codes.ts. */
  codes: OneTimeCodes;
  loginThrottle: LoginThrottle;
  auth: AuthService;
  handOff: HandOffService;
  /**
   * The one sign-in policy (sign-in-policy.ts): every way in calls it after its first factor;
   * later modules hand it the passkey step, the sign-in hooks and the new-device listeners.
   */
  signInPolicy: SignInPolicy;
}

declare module '../../deps.js' {
  interface AppDeps extends IdentityDeps {
    /**
     * What login asks about a second factor (second-factor.ts). Declared here, by the module that
     * asks, and filled by the two-factor module's plugin, registered before this one: so auth
     * imports nothing of two-factor and the two modules form no ring.
     */
    secondFactor: SecondFactor;
  }
}

/** Adapters tests may pass to `buildApp` instead of the configured ones. */
export interface IdentityOptions {
  mailTransport?: MailTransport | undefined;
  rateLimiter?: RateLimiter | undefined;
}

/**
 * The identity core: mail, per-address limits, one-time codes, the account lock, sign-in and
 * hand-offs, and the `/authms/api/Auth` routes. Login asks the two-factor module's port
 * (`app.deps.secondFactor`), built before this plugin. The mail sender starts when the app is
 * ready, is woken after every response that enqueued a letter, and stops (waiting for the letter
 * in flight) when the app closes.
 */
export const authPlugin = fp<IdentityOptions>(
  async (app, options) => {
    const { config, db, clock, sessions, redis, secondFactor, metrics, securityLog } = app.deps;
    app.deps.dataOwners.register(authData(sessions));
    const mail = new MailOutbox(
      db,
      clock,
      options.mailTransport ?? createMailTransport(config),
      app.log.child({ module: 'mail' }),
      { firstRetryMs: config.MAIL_FIRST_RETRY_SECONDS * 1000 },
    );
    const rateLimiter = options.rateLimiter ?? new RateLimiter(redis);
    const codes = new OneTimeCodes({ db, clock, secretKey: config.SECRET_KEY });
    const loginThrottle = new LoginThrottle({ db, clock });
    const signInPolicy = new SignInPolicy({
      db,
      sessions,
      loginThrottle,
      secondFactor,
      securityLog,
    });
    const auth = new AuthService({
      config,
      db,
      clock,
      sessions,
      codes,
      mail,
      rateLimiter,
      loginThrottle,
      secondFactor,
      securityLog,
      signInPolicy,
    });
    const handOff = new HandOffService({
      db,
      clock,
      sessions,
      signInPolicy,
      config,
      securityLog,
    });
    Object.assign(app.deps, {
      mail,
      rateLimiter,
      codes,
      loginThrottle,
      auth,
      handOff,
      signInPolicy,
    });
    auth.onLoginOutcome(metrics.countSignIn);
    loginThrottle.onLockStarted(metrics.countAccountLock);
    loginThrottle.onLockStarted(
      mailLockNotices({ config, db, mail }, app.log.child({ module: 'auth' })),
    );

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

    await app.register(authRoutes, { prefix: AUTH_PREFIX });
  },
  { name: 'auth', dependencies: ['core', 'metrics', 'security-log', 'two-factor'] },
);
