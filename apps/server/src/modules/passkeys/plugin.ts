import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../auth/plugin.js';
import type {} from '../security-log/plugin.js';
import { passkeysData } from './data-owner.js';
import { PasskeyService } from './passkey-service.js';
import { passkeyRoutes } from './routes.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** Passkeys (WebAuthn): the owner's list, adding one, and signing in with one. */
    passkeys: PasskeyService;
  }
}

/**
 * Passkeys. Registered after the auth module: its routes need the session guard and the
 * per-address limits, and it offers the sign-in policy its passkeys as the second step
 * (`signInPolicy.usePasskeyStep`, auth/second-factor.ts).
 */
export const passkeysPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(passkeysData);
    const { config, db, clock, signInPolicy, securityLog, rateLimiter } = app.deps;
    const passkeys = new PasskeyService({
      config,
      db,
      clock,
      signInPolicy,
      securityLog,
      rateLimiter,
    });
    app.deps.passkeys = passkeys;
    signInPolicy.usePasskeyStep(passkeys);
    await app.register(passkeyRoutes);
  },
  { name: 'passkeys', dependencies: ['core', 'security-log', 'auth'] },
);
