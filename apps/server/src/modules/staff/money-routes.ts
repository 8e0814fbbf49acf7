import { errorAnswerSchema, roublesToKopecks } from '@portal/contracts/common';
import {
  type MoneyRequest,
  moneyRequestsAnswerSchema,
  STAFF_API,
  staffCorrectionRequestSchema,
  staffDoneAnswerSchema,
  staffMoneyAnswerSchema,
  staffReasonRequestSchema,
  staffReconcileAnswerSchema,
  staffRefundRequestSchema,
} from '@portal/contracts/staff';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import type { MoneyRequestView, StaffMoney } from '../operator/index.js';
import type { StaffAccountService } from './account-service.js';
import { actorOf, type StaffGuard } from './guard.js';
import { common, notStaff, proofNeeded } from './proof-routes.js';

const idParams = z.object({ id: z.string().max(100) });
const moneyAnswers = {
  400: errorAnswerSchema,
  ...proofNeeded,
  404: errorAnswerSchema.describe('Не сотрудник финансов (как неизвестный адрес), или такого нет'),
  409: errorAnswerSchema.describe('Отказ: деньги не двигались'),
};
const requestsQuery = z.object({
  /** pending: the waiting ones, oldest first; all: the latest 100 of any status. */
  status: z.enum(['pending', 'all']).default('pending'),
});

/** The page's amount (roubles, or whole points) as the service counts it (kopecks, or points). */
const unitsOf = (amount: number, currency: 'rub' | 'points') =>
  currency === 'rub' ? roublesToKopecks(amount) : amount;

/** A request as the page reads it: amounts in roubles or points, as the account page's. */
function moneyRequestOf({ row, status, accountEmail }: MoneyRequestView): MoneyRequest {
  return {
    id: row.id,
    kind: row.kind,
    accountId: row.accountId,
    accountEmail,
    paymentId: row.paymentId,
    currency: row.currency,
    amount: row.currency === 'rub' ? row.amount / 100 : row.amount,
    reason: row.reason,
    requestedBy: row.requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    status,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    requestedByUserId: row.requestedByUserId,
  };
}

/**
 * Money on the staff pages (finance and admin): corrections, refunds, reconciling a payment, and
 * the requests of money moved by two people. Each calls the one staff money service the command
 * line calls (modules/operator/money-service.ts), which keeps every rule: the threshold, the
 * reason, not one's own request, once whatever the number of clicks.
 */
export const staffMoneyRoutes: FastifyPluginAsyncZod<{
  guard: StaffGuard;
  money: StaffMoney;
  accounts: StaffAccountService;
}> = async (app, { guard, money, accounts }) => {
  const finance = guard.require('money');

  app.post(
    `${STAFF_API}/accounts/:id/correction`,
    {
      onRequest: finance,
      schema: {
        ...common,
        summary:
          'Начислить или списать рубли или баллы (корректировка); больше порога — запрос на одобрение',
        params: idParams,
        body: staffCorrectionRequestSchema,
        response: { 200: staffMoneyAnswerSchema, ...moneyAnswers },
      },
    },
    async (request) => {
      const user = await accounts.find(request.params.id);
      const { direction, currency, amount, reason, idempotencyKey } = request.body;
      return money.correct(actorOf(request, reason), {
        accountId: user.id,
        direction,
        currency,
        amount: unitsOf(amount, currency),
        idempotencyKey,
      });
    },
  );

  app.post(
    `${STAFF_API}/payments/:id/refund`,
    {
      onRequest: finance,
      schema: {
        ...common,
        summary: 'Вернуть пополнение на карту (всё или часть); больше порога — запрос на одобрение',
        params: idParams,
        body: staffRefundRequestSchema,
        response: { 200: staffMoneyAnswerSchema, ...moneyAnswers },
      },
    },
    async (request) => {
      const { amount, reason, idempotencyKey } = request.body;
      return money.refund(actorOf(request, reason), {
        paymentId: request.params.id,
        amountKopecks: amount === undefined ? undefined : roublesToKopecks(amount),
        idempotencyKey,
      });
    },
  );

  app.post(
    `${STAFF_API}/payments/:id/reconcile`,
    {
      onRequest: finance,
      schema: {
        ...common,
        summary: 'Сверить платёж с банком и применить его ответ (зачисляет не больше одного раза)',
        params: idParams,
        body: staffReasonRequestSchema,
        response: { 200: staffReconcileAnswerSchema, ...moneyAnswers },
      },
    },
    async (request) => {
      const done = await money.reconcile(actorOf(request, request.body.reason), request.params.id);
      // Recorded either way; not asked or not applied is the page's refusal.
      if (!done.isReconciled) throw new AppError('conflict', done.message);
      return { message: done.message, status: done.statusAfter ?? done.payment.status };
    },
  );

  app.get(
    `${STAFF_API}/money-requests`,
    {
      onRequest: finance,
      schema: {
        ...common,
        summary: 'Запросы денег выше порога: ждущие одобрения или последние 100',
        querystring: requestsQuery,
        response: { 200: moneyRequestsAnswerSchema, ...proofNeeded, ...notStaff },
      },
    },
    async (request) => ({
      items: (await money.list({ all: request.query.status === 'all' })).map(moneyRequestOf),
    }),
  );

  app.post(
    `${STAFF_API}/money-requests/:id/approve`,
    {
      onRequest: finance,
      schema: {
        ...common,
        summary: 'Одобрить запрос другого сотрудника: деньги двигаются сразу и один раз',
        params: idParams,
        body: staffReasonRequestSchema,
        response: { 200: staffDoneAnswerSchema, ...moneyAnswers },
      },
    },
    async (request) => money.approve(actorOf(request, request.body.reason), request.params.id),
  );

  app.post(
    `${STAFF_API}/money-requests/:id/decline`,
    {
      onRequest: finance,
      schema: {
        ...common,
        summary: 'Отклонить запрос (свой — отозвать): деньги не двигаются',
        params: idParams,
        body: staffReasonRequestSchema,
        response: { 200: staffDoneAnswerSchema, ...moneyAnswers },
      },
    },
    async (request) => money.decline(actorOf(request, request.body.reason), request.params.id),
  );
};
