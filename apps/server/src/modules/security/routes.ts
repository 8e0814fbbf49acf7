import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkupRoutes } from './checkup-routes.js';
import { devicesRoutes } from './devices-routes.js';
import { logoutRoutes } from './logout-routes.js';
import { notMeRoutes } from './not-me-routes.js';
import { NotMeService } from './not-me-service.js';
import { passwordChangeRoutes } from './password-change-routes.js';
import { passwordResetRoutes } from './password-reset-routes.js';
import { PasswordResetService } from './password-reset-service.js';
import { proofRoutes } from './proof-routes.js';
import { ResetLogoutGrants } from './reset-logout-grants.js';

/**
 * Account security: devices, signing out everywhere, password reset and change, and the fresh
 * proof of the owner that changes of factors need.
 */
export const securityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, config } = app.deps;
  // A reset issues the grant that the `logout-all` right after it redeems.
  const grants = new ResetLogoutGrants(db, clock, config.SECRET_KEY);
  const passwords = new PasswordResetService({ ...app.deps, grants });
  const notMe = new NotMeService({ ...app.deps, links: app.deps.notMeLinks, passwords });
  // Every sign-in from a new device, whichever module signs in, mails its alert from here.
  app.deps.signInPolicy.onNewDeviceSignIn(notMe.onNewDeviceSignIn);
  await app.register(devicesRoutes);
  await app.register(logoutRoutes, { grants });
  await app.register(passwordResetRoutes, { passwords });
  await app.register(notMeRoutes, { notMe });
  await app.register(passwordChangeRoutes);
  await app.register(proofRoutes);
  await app.register(checkupRoutes);
};
