import { deviceParamsSchema, devicesAnswerSchema } from '@portal/contracts/auth';
import { errorAnswerSchema, messageAnswerSchema } from '@portal/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../http/app-error.js';
import { requireSession, sessionOf, siteName } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { SECURITY_MESSAGES } from './messages.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const common = { tags: ['devices'], security: [{ bearer: [] }] };

/**
 * A device is a session: the caller's own, listed (each with the site it belongs to) and ended one
 * by one. Portal sessions only: a sibling site's session may not see or end the others.
 */
export const devicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, db, sessions, securityLog } = app.deps;

  app.post(
    '/authms/api/Auth/devices',
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary: 'Сеансы текущего пользователя (последняя активность — сначала свежие)',
        response: { 200: devicesAnswerSchema, 401: errorAnswerSchema },
      },
    },
    async (request) => {
      const current = sessionOf(request);
      const rows = await sessions.listActive(current.userId);
      return rows.map((row) => ({
        id: row.id,
        userAgent: row.userAgent,
        ipAddress: row.ipAddress || null,
        lastActivity: row.lastActivityAt.toISOString(),
        isCurrent: row.id === current.id,
        site: siteName(config, row.clientOrigin),
      }));
    },
  );

  app.delete(
    '/authms/api/Auth/devices/:id',
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary: 'Завершает сеанс устройства; чужой или неизвестный — 404',
        params: deviceParamsSchema,
        response: { 200: messageAnswerSchema, 401: errorAnswerSchema, 404: errorAnswerSchema },
      },
    },
    async (request) => {
      const current = sessionOf(request);
      const { userId } = current;
      const { id } = request.params;
      // Another user's session answers exactly like one that never existed.
      if (!UUID.test(id) || !(await sessions.revoke(userId, id))) {
        throw notFound(SECURITY_MESSAGES.deviceNotFound);
      }
      // Ending this very device from its list is signing out of it.
      await securityLog.record(
        db,
        userId,
        id === current.id ? 'sign_out' : 'session_ended',
        clientOf(request),
        id === current.id ? {} : { via: 'devices' },
      );
      return { message: SECURITY_MESSAGES.deviceSignedOut };
    },
  );
};
