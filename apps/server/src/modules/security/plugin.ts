import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../auth/plugin.js';
import type {} from '../passkeys/plugin.js';
import type {} from '../security-log/plugin.js';
import type {} from '../two-factor/plugin.js';
import { CheckupService } from './checkup-service.js';
import { securityData } from './data-owner.js';
import { DevicesService } from './devices-service.js';
import { NotMeLinks } from './not-me-links.js';
import { NotMeService } from './not-me-service.js';
import { PasswordChangeService } from './password-change-service.js';
import { PasswordResetService } from './password-reset-service.js';
import { ProofService } from './proof-service.js';
import { ResetLogoutGrants } from './reset-logout-grants.js';
import { securityRoutes } from './routes.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** Signs and checks the «Это был не я» links (the Telegram notice carries one too). */
    notMeLinks: NotMeLinks;
    /** The devices list; modules/oidc adds the sites' sign-ins to it (`useSiteSignIns`). */
    devices: DevicesService;
  }
}

/** Devices, signing out everywhere, password reset and change, fresh proof of the owner. */
export const securityPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(securityData);
    const { config, db, clock } = app.deps;
    const links = new NotMeLinks({ secretKey: config.SECRET_KEY, publicUrl: config.PUBLIC_URL });
    app.deps.notMeLinks = links;
    // A reset issues the grant that the `logout-all` right after it redeems.
    const grants = new ResetLogoutGrants({ db, clock, secretKey: config.SECRET_KEY });
    const passwordResets = new PasswordResetService({ ...app.deps, grants });
    const notMe = new NotMeService({ ...app.deps, links, passwords: passwordResets });
    // Every sign-in from a new device, whichever module signs in, mails its alert from here.
    app.deps.signInPolicy.onNewDeviceSignIn(notMe.onNewDeviceSignIn);
    const devices = new DevicesService({ ...app.deps, grants });
    app.deps.devices = devices;
    await app.register(securityRoutes, {
      devices,
      passwordResets,
      notMe,
      passwordChanges: new PasswordChangeService(app.deps),
      proofs: new ProofService(app.deps),
      checkup: new CheckupService(app.deps),
    });
  },
  { name: 'security', dependencies: ['core', 'auth', 'security-log', 'two-factor', 'passkeys'] },
);
