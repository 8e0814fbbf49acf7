import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { securityLogData } from './data-owner.js';
import { securityLogRoutes } from './routes.js';
import { SecurityLog } from './security-log-service.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** The account's security log: `record`, `recordSignIn`, `recordFailedSignIn`, `page`. */
    securityLog: SecurityLog;
  }
}

/**
 * The account's security log. Registered before every module that records into it (two-factor,
 * auth and the rest declare it as a dependency); its route needs the auth module's session guard,
 * which it reaches at request time only.
 */
export const securityLogPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(securityLogData);
    const { db, clock } = app.deps;
    app.deps.securityLog = new SecurityLog({ db, clock });
    await app.register(securityLogRoutes);
  },
  { name: 'security-log', dependencies: ['core'] },
);
