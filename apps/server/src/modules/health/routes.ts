import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const statusSchema = z.object({ status: z.string() });
const errorSchema = z.object({ message: z.string() });

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'Процесс запущен', response: { 200: statusSchema } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'База данных доступна',
        response: { 200: statusSchema, 503: errorSchema },
      },
    },
    async (_request, reply) => {
      try {
        await app.deps.database.ping();
        return { status: 'ready' };
      } catch {
        return reply.status(503).send({ message: 'База данных недоступна' });
      }
    },
  );
};
