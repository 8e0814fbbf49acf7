import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { accountsData } from './data-owner.js';

/**
 * The accounts have no routes and build nothing (their functions take the executor); the plugin
 * only says what becomes of the users table (data-owner.ts).
 */
export const accountsPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(accountsData);
  },
  { name: 'accounts', dependencies: ['core'] },
);
