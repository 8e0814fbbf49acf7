import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../auth/plugin.js';
import { devMailRoutes } from './routes.js';

/** The development mailbox's pages, when letters stay in the portal. */
export const devMailPlugin = fp(
  async (app) => {
    await app.register(devMailRoutes);
  },
  { name: 'dev-mail', dependencies: ['core', 'auth'] },
);
