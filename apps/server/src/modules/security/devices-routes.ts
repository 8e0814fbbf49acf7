import { deviceParamsSchema, devicesAnswerSchema } from '@portal/contracts/auth';
import { errorAnswerSchema, messageAnswerSchema } from '@portal/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import type { DevicesService } from './devices-service.js';
import { SECURITY_MESSAGES } from './messages.js';

const common = { tags: ['devices'], security: [{ bearer: [] }] };

/**
 * A device is a session: the caller's own, listed (each with the site it belongs to) and ended one
 * by one. Portal sessions only: a sibling site's session may not see or end the others.
 */
export const devicesRoutes: FastifyPluginAsyncZod<{ devices: DevicesService }> = async (
  app,
  { devices },
) => {
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
    async (request) => devices.list(sessionOf(request)),
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
      await devices.end(sessionOf(request), request.params.id, clientOf(request));
      return { message: SECURITY_MESSAGES.deviceSignedOut };
    },
  );
};
