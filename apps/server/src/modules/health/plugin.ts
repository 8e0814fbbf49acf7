import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { healthRoutes } from './routes.js';

/** `GET /health`: is the process up and does its database answer. */
export const healthPlugin = fp(
  async (app) => {
    await app.register(healthRoutes);
  },
  { name: 'health', dependencies: ['core'] },
);
