import { errorAnswerSchema } from '@portal/contracts/common';
import { catalogueItemSchema, ownerServicesAnswerSchema } from '@portal/contracts/services';
import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSession, sessionOf } from '../auth/sessions.js';
import { loadCatalogue } from './catalogue.js';
import { services } from './schema.js';
import { toOwnerService } from './service-view.js';

/** The owner's services and the brand's catalogue (spec §2 "Home", §7). */
export const serviceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const catalogue = loadCatalogue(deps.config);

  app.get(
    '/serversms/api/Servers/owner/services',
    {
      preHandler: requireSession,
      schema: {
        tags: ['services'],
        summary: 'Услуги пользователя (активные и приостановленные), старые сверху',
        description:
          '`amount` — цена в месяц в рублях (по умолчанию 1790), `message` — название, ' +
          '`serverCount` — число серверов, `paidUntil` — до какого момента оплачено.',
        security: [{ bearer: [] }],
        response: { 200: ownerServicesAnswerSchema, 401: errorAnswerSchema },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      return deps.userReads.read(userId, 'services', async () => {
        const rows = await deps.db
          .select()
          .from(services)
          .where(eq(services.userId, userId))
          .orderBy(asc(services.createdAt), asc(services.id));
        return rows.map(toOwnerService);
      });
    },
  );

  app.get(
    '/serversms/api/Servers/catalogue',
    {
      schema: {
        tags: ['services'],
        summary: 'Каталог сервисов бренда (настройка SERVICE_CATALOGUE)',
        description:
          '`status`: active — кнопка «Открыть» (ссылка с кодом передачи входа), ' +
          'inactive — кнопка недоступна, soon — «Скоро». Пустой список — «На стадии разработки».',
        response: { 200: z.array(catalogueItemSchema) },
      },
    },
    async () => catalogue,
  );
};
