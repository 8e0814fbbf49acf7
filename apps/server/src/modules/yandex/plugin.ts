import type {} from '@fastify/cookie';
import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../auth/plugin.js';
import type {} from '../security-log/plugin.js';
import type {} from '../two-factor/plugin.js';
import { yandexData } from './data-owner.js';
import { yandexRoutes } from './routes.js';
import { YandexSignIn } from './yandex-sign-in.js';

/** Yandex ID: sign-in and linking. */
export const yandexPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(yandexData);
    const { config, db, clock, sessions, signInPolicy, securityLog } = app.deps;
    const yandex = new YandexSignIn({ config, db, clock, sessions, signInPolicy, securityLog });
    await app.register(yandexRoutes, { yandex });
  },
  {
    name: 'yandex',
    dependencies: ['core', '@fastify/cookie', 'auth', 'security-log', 'two-factor'],
  },
);
