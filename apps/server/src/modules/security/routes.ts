import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkupRoutes } from './checkup-routes.js';
import type { CheckupService } from './checkup-service.js';
import { devicesRoutes } from './devices-routes.js';
import type { DevicesService } from './devices-service.js';
import { logoutRoutes } from './logout-routes.js';
import { notMeRoutes } from './not-me-routes.js';
import type { NotMeService } from './not-me-service.js';
import { passwordChangeRoutes } from './password-change-routes.js';
import type { PasswordChangeService } from './password-change-service.js';
import { passwordResetRoutes } from './password-reset-routes.js';
import type { PasswordResetService } from './password-reset-service.js';
import { proofRoutes } from './proof-routes.js';
import type { ProofService } from './proof-service.js';

/** The module's services, built by its plugin (plugin.ts). */
export interface SecurityServices {
  devices: DevicesService;
  passwordResets: PasswordResetService;
  notMe: NotMeService;
  passwordChanges: PasswordChangeService;
  proofs: ProofService;
  checkup: CheckupService;
}

/**
 * Account security: devices, signing out everywhere, password reset and change, and the fresh
 * proof of the owner that changes of factors need.
 */
export const securityRoutes: FastifyPluginAsyncZod<SecurityServices> = async (app, services) => {
  await app.register(devicesRoutes, { devices: services.devices });
  await app.register(logoutRoutes, { devices: services.devices });
  await app.register(passwordResetRoutes, { passwords: services.passwordResets });
  await app.register(notMeRoutes, { notMe: services.notMe });
  await app.register(passwordChangeRoutes, { passwords: services.passwordChanges });
  await app.register(proofRoutes, { proofs: services.proofs });
  await app.register(checkupRoutes, { checkup: services.checkup });
};
