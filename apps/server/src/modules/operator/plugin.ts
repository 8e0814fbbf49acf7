import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { operatorData } from './data-owner.js';

/**
 * The operator's tool is a command line (cli.ts), not a part of the server; this plugin only
 * says what becomes of its tables (data-owner.ts).
 */
export const operatorPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(operatorData);
  },
  { name: 'operator', dependencies: ['core'] },
);
