import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type { SecondFactor } from '../auth/index.js';
import type {} from '../auth/plugin.js';
import type {} from '../security-log/plugin.js';
import { twoFactorData } from './data-owner.js';
import { twoFactorRoutes } from './routes.js';
import { TwoFactorService } from './two-factor-service.js';

declare module '../../deps.js' {
  interface AppDeps {
    twoFactor: TwoFactorService;
  }
}

export interface TwoFactorOptions {
  /** Tests may answer login's second-factor questions themselves. */
  secondFactor?: SecondFactor | undefined;
}

/**
 * The authenticator. Built before the auth module, which takes it as login's second-factor
 * port; its routes need the auth module's login throttle, so they are a plugin of their own
 * (`twoFactorRoutesPlugin`), registered after it.
 */
export const twoFactorPlugin = fp<TwoFactorOptions>(
  async (app, options) => {
    app.deps.dataOwners.register(twoFactorData);
    const { db, clock, config, securityLog } = app.deps;
    const twoFactor = new TwoFactorService({
      db,
      clock,
      secretKey: config.SECRET_KEY,
      issuer: config.BRAND_NAME,
      securityLog,
    });
    app.deps.twoFactor = twoFactor;
    // The port auth declares (auth/plugin.ts) and this module fills: the authenticator.
    app.deps.secondFactor = options.secondFactor ?? twoFactor;
  },
  { name: 'two-factor', dependencies: ['core', 'security-log'] },
);

/** `/authms/api/Auth/2fa/…`: enabling, verifying and disabling the authenticator. */
export const twoFactorRoutesPlugin = fp(
  async (app) => {
    await app.register(twoFactorRoutes);
  },
  { name: 'two-factor-routes', dependencies: ['two-factor', 'auth'] },
);
