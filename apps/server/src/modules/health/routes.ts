import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const READY_DEADLINE_MS = 1_500;

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
      // Answered within READY_DEADLINE_MS also when the database hangs rather than refuses.
      const deadline = new AbortController();
      try {
        await Promise.race([
          app.deps.database.ping(),
          delay(READY_DEADLINE_MS, undefined, { signal: deadline.signal }).then(() => {
            throw new Error('ping timed out');
          }),
        ]);
        return { status: 'ready' };
      } catch {
        return reply.status(503).send({ message: 'База данных недоступна' });
      } finally {
        deadline.abort();
      }
    },
  );
};
