import { errorAnswerSchema, kopecksToRoubles, roublesToKopecks } from '@portal/contracts/common';
import { USER_NOT_FOUND } from '@portal/contracts/messages';
import { ownerServiceSchema, ownerServicesAnswerSchema } from '@portal/contracts/services';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/app-error.js';
import { isLocalPortal } from '../../local-portal.js';
import { readBalances } from '../accounts/index.js';
import { requireSiblingKey, siblingKeys, siblingOf } from '../auth/index.js';
import {
  INSUFFICIENT_FUNDS,
  ORDER_NOT_FOUND,
  ORDER_OF_ANOTHER_USER,
  SERVICE_NOT_FOUND,
} from './messages.js';
import { toOwnerService } from './service-view.js';
import { listServicesOf, updateSiblingService } from './services-repository.js';
import {
  siblingOrderAnswerSchema,
  siblingOrderCancelAnswerSchema,
  siblingOrderCancelRequestSchema,
  siblingOrderRequestSchema,
  siblingServiceUpdateSchema,
  siblingWalletAnswerSchema,
} from './sibling-schemas.js';
import { siblingKnowsUser } from './sibling-users.js';

export const SIBLING_PREFIX = '/serversms/api/Sibling';

const security = [{ siblingApiKey: [] }];
const unauthorizedAnswer = errorAnswerSchema.describe('Нет заголовка X-Api-Key или ключ неверный');
const tooManyAnswer = errorAnswerSchema.describe(
  'Больше 20 неверных ключей с этого адреса за 10 минут',
);
/** The refusals of every call about one user: a bad id or key, too many keys, not its user. */
const userCallAnswers = {
  400: errorAnswerSchema,
  401: unauthorizedAnswer,
  429: tooManyAnswer,
  404: errorAnswerSchema.describe(USER_NOT_FOUND),
};

/**
 * The server-to-server API for sibling sites: each authenticates with its own key from
 * SIBLING_API_KEYS in `X-Api-Key`, never with a user's token, sees only its services and only
 * the users who have used it (sibling-users.ts); anyone else is 404 like an unknown id.
 */
export const siblingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const preHandler = requireSiblingKey(siblingKeys(deps.config));
  // The links a site gives to show must be https: (http: too beside a portal on this machine).
  const isPortalLocal = isLocalPortal(deps.config.PUBLIC_URL);

  app.post(
    '/orders',
    {
      preHandler,
      schema: {
        tags: ['sibling'],
        summary: 'Оформить или продлить услугу пользователя и списать оплату с его кошелька',
        description:
          'Одна транзакция: сначала баллы (если `usePoints`, 1 балл = 1 ₽, только целые рубли цены), ' +
          'затем рубли; кэшбэк — 5% рублёвой части баллами, с округлением вниз. ' +
          'Тот же `service.externalId` — продление (с конца оплаченного периода или с текущего момента, ' +
          'если он прошёл). Повтор с тем же `orderId` и тем же телом отвечает первым ответом и не ' +
          'списывает повторно; с другим телом — 409. При нехватке средств — 402, ничего не меняется.',
        security,
        body: siblingOrderRequestSchema(isPortalLocal),
        response: {
          200: siblingOrderAnswerSchema,
          ...userCallAnswers,
          402: errorAnswerSchema.describe(INSUFFICIENT_FUNDS),
          409: errorAnswerSchema.describe('Номер заказа занят другим заказом или услуга чужая'),
        },
      },
    },
    async (request, reply) => {
      const outcome = await deps.servers.orders.place(siblingOf(request), request.body);
      if (!outcome.isPaid) return reply.status(402).send({ message: INSUFFICIENT_FUNDS });
      return outcome.answer;
    },
  );

  app.post(
    '/orders/:orderId/cancel',
    {
      preHandler,
      schema: {
        tags: ['sibling'],
        summary: 'Отменить заказ и вернуть его оплату в кошелёк',
        description:
          'Одна транзакция: рублёвая часть оплаты возвращается рублями, баллы — баллами; кэшбэк, ' +
          'начисленный за заказ, списывается, но не больше, чем баллов есть (баланс не уходит в минус). ' +
          'Услуга теряет оплаченные заказом месяцы; отменённая покупка приостанавливается и не ' +
          'продлевается. Повтор отвечает тем же ответом и ничего не меняет.',
        security,
        params: z.object({ orderId: z.string().min(1).max(64) }),
        body: siblingOrderCancelRequestSchema,
        response: {
          200: siblingOrderCancelAnswerSchema,
          400: errorAnswerSchema,
          401: unauthorizedAnswer,
          403: errorAnswerSchema.describe(ORDER_OF_ANOTHER_USER),
          404: errorAnswerSchema.describe(ORDER_NOT_FOUND),
          429: tooManyAnswer,
        },
      },
    },
    async (request) =>
      deps.servers.orderCancels.cancel(
        siblingOf(request),
        request.params.orderId,
        request.body.userId,
      ),
  );

  app.patch(
    '/services/:externalId',
    {
      preHandler,
      schema: {
        tags: ['sibling'],
        summary: 'Изменить услугу без оплаты: название, серверы, цену, автопродление, ссылку',
        security,
        params: z.object({ externalId: z.string().min(1).max(64) }),
        body: siblingServiceUpdateSchema(isPortalLocal),
        response: {
          200: ownerServiceSchema,
          400: errorAnswerSchema,
          401: unauthorizedAnswer,
          429: tooManyAnswer,
          404: errorAnswerSchema.describe(SERVICE_NOT_FOUND),
        },
      },
    },
    async (request) => {
      const { pricePerMonth, ...rest } = request.body;
      const row = await updateSiblingService(
        deps.db,
        siblingOf(request).name,
        request.params.externalId,
        {
          ...rest,
          ...(pricePerMonth !== undefined ? { priceKopecks: roublesToKopecks(pricePerMonth) } : {}),
          updatedAt: deps.clock.now(),
        },
      );
      if (!row) throw notFound(SERVICE_NOT_FOUND);
      return toOwnerService(row);
    },
  );

  const userParams = z.object({ userId: z.uuid(USER_NOT_FOUND) });

  app.get(
    '/users/:userId/wallet',
    {
      preHandler,
      schema: {
        tags: ['sibling'],
        summary: 'Баланс пользователя: рубли и баллы',
        security,
        params: userParams,
        response: {
          200: siblingWalletAnswerSchema,
          ...userCallAnswers,
        },
      },
    },
    async (request) => {
      const { userId } = request.params;
      if (!(await siblingKnowsUser(deps.db, siblingOf(request), userId))) {
        throw notFound(USER_NOT_FOUND);
      }
      const user = await readBalances(deps.db, userId);
      if (!user) throw notFound(USER_NOT_FOUND);
      return { balance: kopecksToRoubles(user.kopecks), balanceStars: user.points };
    },
  );

  app.get(
    '/users/:userId/services',
    {
      preHandler,
      schema: {
        tags: ['sibling'],
        summary: 'Услуги пользователя, оформленные этим сайтом',
        security,
        params: userParams,
        response: {
          200: ownerServicesAnswerSchema,
          ...userCallAnswers,
        },
      },
    },
    async (request) => {
      const { userId } = request.params;
      const sibling = siblingOf(request);
      if (!(await siblingKnowsUser(deps.db, sibling, userId))) throw notFound(USER_NOT_FOUND);
      return (await listServicesOf(deps.db, userId, sibling.name)).map(toOwnerService);
    },
  );
};
