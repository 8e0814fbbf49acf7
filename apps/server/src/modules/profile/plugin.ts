import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { AUTH_PREFIX } from '../auth/index.js';
import type {} from '../auth/plugin.js';
import type {} from '../security-log/plugin.js';
import { profileData } from './data-owner.js';
import { ProfileService } from './profile-service.js';
import { profileRoutes } from './routes.js';

/** The profile: name, e-mail change, phone, avatar address. */
export const profilePlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(profileData);
    await app.register(profileRoutes, {
      prefix: AUTH_PREFIX,
      profile: new ProfileService(app.deps),
    });
  },
  { name: 'profile', dependencies: ['core', 'auth', 'security-log'] },
);
