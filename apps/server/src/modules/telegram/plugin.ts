import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../security/plugin.js';
import type {} from '../security-log/plugin.js';
import { telegramData } from './data-owner.js';
import { telegramRoutes } from './routes.js';

/** Linking Telegram, sign-in notices and the bot. */
export const telegramPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(telegramData);
    await app.register(telegramRoutes);
  },
  { name: 'telegram', dependencies: ['core', 'security-log', 'security'] },
);
