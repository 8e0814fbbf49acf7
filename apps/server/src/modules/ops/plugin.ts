import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { opsRoutes } from './routes.js';

/** Operator calls from this machine only (backup). */
export const opsPlugin = fp(
  async (app) => {
    await app.register(opsRoutes);
  },
  { name: 'ops', dependencies: ['core'] },
);
