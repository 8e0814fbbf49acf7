import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../auth/plugin.js';
import type {} from '../security-log/plugin.js';
import type {} from '../two-factor/plugin.js';
import { securityRoutes } from './routes.js';

/** Devices, signing out everywhere, password reset and change, fresh proof of the owner. */
export const securityPlugin = fp(
  async (app) => {
    await app.register(securityRoutes);
  },
  { name: 'security', dependencies: ['core', 'auth', 'security-log', 'two-factor'] },
);
