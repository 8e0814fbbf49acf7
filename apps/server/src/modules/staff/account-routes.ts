import { errorAnswerSchema } from '@portal/contracts/common';
import {
  STAFF_API,
  STAFF_PAGE_SIZE,
  staffAccountAnswerSchema,
  staffDoneAnswerSchema,
  staffFactorResetRequestSchema,
  staffReasonRequestSchema,
  staffReceiptsAnswerSchema,
  staffSearchAnswerSchema,
  staffSearchQuerySchema,
} from '@portal/contracts/staff';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UserRow } from '../accounts/index.js';
import type { StaffActor } from '../operator/index.js';
import type { SupportAccessService } from './access-service.js';
import type { StaffAccountService } from './account-service.js';
import { actorOf, type StaffGuard } from './guard.js';
import type { LetterResendService } from './letter-service.js';
import { STAFF_MESSAGES } from './messages.js';
import { common, notStaff, proofNeeded } from './proof-routes.js';

const idParams = z.object({ id: z.string().max(100) });
const actionAnswers = {
  200: staffDoneAnswerSchema,
  400: errorAnswerSchema,
  ...proofNeeded,
  ...notStaff,
  409: errorAnswerSchema.describe('Отказ: ничего не изменилось'),
};

/** The account actions that take nothing but a reason; each answers its message. */
function accountActions(access: SupportAccessService) {
  return {
    unlock: {
      summary: 'Снять ожидание входа после неверных паролей или кодов',
      run: async (actor: StaffActor, user: UserRow) =>
        (await access.unlock(actor, user)).lockedUntil
          ? STAFF_MESSAGES.unlocked
          : STAFF_MESSAGES.counterReset,
    },
    'end-sessions': {
      summary: 'Завершить все сеансы аккаунта на всех процессах портала',
      run: async (actor: StaffActor, user: UserRow) =>
        STAFF_MESSAGES.sessionsEnded(await access.endSessions(actor, user)),
    },
    block: {
      summary: 'Заблокировать аккаунт: никакого входа, все сеансы завершены',
      run: async (actor: StaffActor, user: UserRow) =>
        STAFF_MESSAGES.blocked(await access.block(actor, user)),
    },
    unblock: {
      summary: 'Снять блокировку аккаунта',
      run: async (actor: StaffActor, user: UserRow) => {
        await access.unblock(actor, user);
        return STAFF_MESSAGES.unblocked;
      },
    },
  } as const;
}

/** Finding and opening accounts, and support's actions on them and on their letters. */
export const staffAccountRoutes: FastifyPluginAsyncZod<{
  guard: StaffGuard;
  accounts: StaffAccountService;
  access: SupportAccessService;
  letters: LetterResendService;
}> = async (app, { guard, accounts, access, letters }) => {
  const support = guard.require('support');

  app.get(
    `${STAFF_API}/accounts`,
    {
      onRequest: support,
      schema: {
        ...common,
        summary: 'Найти аккаунт: по e-mail, имени, id, телефону, Telegram id или номеру платежа',
        querystring: staffSearchQuerySchema,
        response: {
          200: staffSearchAnswerSchema,
          400: errorAnswerSchema,
          ...proofNeeded,
          ...notStaff,
        },
      },
    },
    async (request) => {
      const { q, page } = request.query;
      const hits = await accounts.search(q, {
        limit: STAFF_PAGE_SIZE + 1,
        offset: (page - 1) * STAFF_PAGE_SIZE,
      });
      return {
        items: hits.slice(0, STAFF_PAGE_SIZE).map(({ user, matchedBy }) => ({
          id: user.id,
          email: user.email,
          username: user.userName,
          fullName: [user.lastName, user.firstName].filter(Boolean).join(' ') || null,
          createdAt: user.createdAt.toISOString(),
          isBlocked: user.blockedAt !== null,
          matchedBy,
        })),
        page,
        hasMore: hits.length > STAFF_PAGE_SIZE,
      };
    },
  );

  app.get(
    `${STAFF_API}/accounts/:id`,
    {
      onRequest: support,
      schema: {
        ...common,
        summary: 'Аккаунт целиком; открытие записывается в журнал действий',
        params: idParams,
        response: { 200: staffAccountAnswerSchema, ...proofNeeded, ...notStaff },
      },
    },
    async (request) => accounts.open(actorOf(request, null), request.params.id),
  );

  app.get(
    `${STAFF_API}/payments/:id/receipts`,
    {
      onRequest: support,
      schema: {
        ...common,
        summary:
          'Чеки платежа (пополнения и каждого возврата); открытие записывается в журнал действий',
        params: idParams,
        response: {
          200: staffReceiptsAnswerSchema,
          ...proofNeeded,
          404: errorAnswerSchema.describe('Не сотрудник (как неизвестный адрес), или нет платежа'),
        },
      },
    },
    async (request) => accounts.receipts(actorOf(request, null), request.params.id),
  );

  for (const [action, { summary, run }] of Object.entries(accountActions(access))) {
    app.post(
      `${STAFF_API}/accounts/:id/${action}`,
      {
        onRequest: support,
        schema: {
          ...common,
          summary,
          params: idParams,
          body: staffReasonRequestSchema,
          response: actionAnswers,
        },
      },
      async (request) => {
        const user = await accounts.find(request.params.id);
        return { message: await run(actorOf(request, request.body.reason), user) };
      },
    );
  }

  app.post(
    `${STAFF_API}/accounts/:id/factor-reset/code`,
    {
      onRequest: support,
      schema: {
        ...common,
        summary:
          'Отправить клиенту код: он назовёт его, чтобы подтвердить сброс второго шага входа',
        params: idParams,
        body: staffReasonRequestSchema,
        response: { ...actionAnswers, 429: errorAnswerSchema },
      },
    },
    async (request) => {
      const user = await accounts.find(request.params.id);
      await access.mailFactorResetCode(actorOf(request, request.body.reason), user);
      return { message: STAFF_MESSAGES.factorResetCodeSent };
    },
  );

  app.post(
    `${STAFF_API}/accounts/:id/factor-reset`,
    {
      onRequest: support,
      schema: {
        ...common,
        summary:
          'Сбросить второй шаг входа (аутентификатор и ключи доступа) по коду из письма клиента',
        params: idParams,
        body: staffFactorResetRequestSchema,
        response: actionAnswers,
      },
    },
    async (request) => {
      const user = await accounts.find(request.params.id);
      const { reason, code } = request.body;
      const done = await access.resetSecondFactorsByCode(actorOf(request, reason), user, code);
      return {
        message: STAFF_MESSAGES.factorsReset(done.wasAuthenticatorOn, done.passkeysRemoved),
      };
    },
  );

  app.post(
    `${STAFF_API}/letters/:id/resend`,
    {
      onRequest: support,
      schema: {
        ...common,
        summary: 'Отправить застрявшее письмо снова',
        params: idParams,
        body: staffReasonRequestSchema,
        response: actionAnswers,
      },
    },
    async (request) => {
      await letters.resend(actorOf(request, request.body.reason), request.params.id);
      return { message: STAFF_MESSAGES.letterQueued };
    },
  );
};
