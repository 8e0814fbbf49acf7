import { errorAnswerSchema } from '@portal/contracts/common';
import { catalogueItemSchema, ownerServicesAnswerSchema } from '@portal/contracts/services';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSessionOfAnySite, sessionOf, siblingSites } from '../auth/index.js';
import { loadCatalogue } from './catalogue.js';
import { toOwnerService } from './service-view.js';
import { listServicesOf } from './services-repository.js';

/** The owner's services and the brand's catalogue, both shown on the home page. */
export const serviceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const catalogue = loadCatalogue(deps.config);
  const sites = siblingSites(deps.config);

  const servicesOf = async (userId: string, siblingName?: string) =>
    (await listServicesOf(deps.db, userId, siblingName)).map(toOwnerService);

  app.get(
    '/serversms/api/Servers/owner/services',
    {
      preHandler: requireSessionOfAnySite,
      schema: {
        tags: ['services'],
        summary: 'Услуги пользователя (активные и приостановленные), старые сверху',
        description:
          '`amount` — цена в месяц в рублях (по умолчанию 1790), `message` — название, ' +
          '`serverCount` — число серверов, `paidUntil` — до какого момента оплачено. ' +
          'Сеанс сайта-партнёра видит только услуги этого сайта.',
        security: [{ bearer: [] }],
        response: { 200: ownerServicesAnswerSchema, 401: errorAnswerSchema },
      },
    },
    async (request) => {
      const { userId, siblingOrigin } = sessionOf(request);
      if (siblingOrigin === null) {
        return deps.userReads.read(userId, 'services', () => servicesOf(userId));
      }
      // A sibling's session sees that sibling's services; an unknown origin, none.
      const sibling = sites.find((site) => site.origin === siblingOrigin);
      return sibling ? servicesOf(userId, sibling.name) : [];
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
