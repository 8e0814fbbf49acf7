import type {} from '@fastify/cookie';
import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../auth/plugin.js';
import type {} from '../security-log/plugin.js';
import type {} from '../two-factor/plugin.js';
import { yandexData } from './data-owner.js';
import { yandexRoutes } from './routes.js';

/** Yandex ID: sign-in and linking. */
export const yandexPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(yandexData);
    await app.register(yandexRoutes);
  },
  {
    name: 'yandex',
    dependencies: ['core', '@fastify/cookie', 'auth', 'security-log', 'two-factor'],
  },
);
