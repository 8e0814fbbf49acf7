import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../auth/plugin.js';
import { uploadsData } from './data-owner.js';
import { uploadRoutes } from './routes.js';

/** Avatar uploads and the files they are served from. */
export const uploadsPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(uploadsData(app.deps.storage, app.log));
    await app.register(uploadRoutes);
  },
  { name: 'uploads', dependencies: ['core', 'auth'] },
);
