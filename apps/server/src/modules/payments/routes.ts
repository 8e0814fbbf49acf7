import { Readable } from 'node:stream';
import { errorAnswerSchema, roublesToKopecks } from '@portal/contracts/common';
import { PAYMENT_NOT_FOUND } from '@portal/contracts/messages';
import {
  cardPaymentAnswerSchema,
  paymentHistoryAnswerSchema,
  paymentHistoryExportQuerySchema,
  paymentHistoryQuerySchema,
  paymentRequestSchema,
  receiptAnswerSchema,
  sbpPaymentAnswerSchema,
} from '@portal/contracts/wallet';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/app-error.js';
import { requireSession, sessionOf } from '../auth/index.js';
import { listHistory } from './history.js';
import { historyCsv, historyCsvFileName } from './history-csv.js';
import {
  IDEMPOTENCY_KEY_INVALID,
  NOTIFICATION_BAD_TOKEN,
  PAYMENT_CREATED,
  RECEIPT_NOT_FOUND,
} from './messages.js';
import { findOwnReceipt, receiptView } from './receipts.js';
import { NOTIFICATION_PATH, type TopUpMethod } from './top-up.js';

const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/, IDEMPOTENCY_KEY_INVALID)
    .optional()
    .describe('Повтор запроса с тем же ключом отвечает тем же ответом и не создаёт второй платёж'),
});

const errors = {
  400: errorAnswerSchema.describe('Сумма вне лимитов или неверные данные'),
  401: errorAnswerSchema,
  409: errorAnswerSchema.describe(
    'Ключ идемпотентности занят другим платежом или ещё обрабатывается',
  ),
  429: errorAnswerSchema.describe('Больше 30 попыток пополнения за 10 минут'),
  503: errorAnswerSchema.describe(
    'Платёжный провайдер не настроен, не ответил или отказал; ничего не оплачено',
  ),
};

/** The T-Bank notification body; every field is signed by `Token`. */
const notificationSchema = z.looseObject({
  TerminalKey: z.string().optional(),
  OrderId: z.string().optional(),
  Success: z.boolean().optional(),
  Status: z.string().optional(),
  PaymentId: z.union([z.number(), z.string()]).optional(),
  ErrorCode: z.string().optional(),
  Amount: z.number().optional(),
  Token: z.string().optional(),
});

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  async function topUp(
    method: TopUpMethod,
    request: { body: { amount: number }; headers: { 'idempotency-key'?: string | undefined } },
    userId: string,
    log: typeof app.log,
  ) {
    return deps.payments.topUps.start(
      {
        userId,
        method,
        amountKopecks: roublesToKopecks(request.body.amount),
        idempotencyKey: request.headers['idempotency-key'],
      },
      log,
    );
  }

  app.post(
    '/paymentms/api/Payment/create',
    {
      preHandler: requireSession,
      schema: {
        tags: ['wallet'],
        summary: 'Пополнение картой: создать платёж и получить адрес страницы оплаты',
        description:
          'Берёт из тела только `amount` (рубли); пользователь — из сессии, чек сервер собирает сам. ' +
          `Лимиты: от TOP_UP_MIN_ROUBLES до TOP_UP_MAX_ROUBLES ₽. Баланс пополняется позже, по уведомлению провайдера.`,
        security: [{ bearer: [] }],
        headers: idempotencyHeaders,
        body: paymentRequestSchema,
        response: { 200: cardPaymentAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { redirectUrl } = await topUp('card', request, sessionOf(request).userId, request.log);
      return { status: 'ok' as const, data: { paymentUrl: redirectUrl }, message: PAYMENT_CREATED };
    },
  );

  app.post(
    '/paymentms/api/Payment/sbp/qr',
    {
      preHandler: requireSession,
      schema: {
        tags: ['wallet'],
        summary: 'Пополнение через СБП: создать платёж и получить адрес для перехода (от 10 ₽)',
        security: [{ bearer: [] }],
        headers: idempotencyHeaders,
        body: paymentRequestSchema,
        response: { 200: sbpPaymentAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { redirectUrl } = await topUp('sbp', request, sessionOf(request).userId, request.log);
      return { status: 'ok' as const, data: redirectUrl, message: PAYMENT_CREATED };
    },
  );

  app.post(
    NOTIFICATION_PATH,
    {
      schema: {
        tags: ['wallet'],
        summary: 'Уведомление T-Bank о статусе платежа (вызывает провайдер)',
        description:
          'Проверяется подпись `Token` терминала. CONFIRMED зачисляет деньги ровно один раз, ' +
          'REFUNDED/PARTIAL_REFUNDED списывают возврат (кроме уже списанного при возврате из портала), ' +
          'RECEIPT сохраняет чек (один раз на фискальный документ, без движения денег). Ответ — текст `OK`.',
        body: notificationSchema,
        response: {
          200: { description: 'Принято', content: { 'text/plain': { schema: z.literal('OK') } } },
          400: errorAnswerSchema.describe('Сумма или платёж не совпадают'),
          403: errorAnswerSchema.describe(NOTIFICATION_BAD_TOKEN),
          429: errorAnswerSchema.describe('Слишком много неверно подписанных уведомлений'),
          404: errorAnswerSchema.describe(PAYMENT_NOT_FOUND),
          503: errorAnswerSchema.describe('Платёжный провайдер не настроен'),
        },
      },
    },
    async (request, reply) => {
      await deps.payments.notifications.receive(request.body, request.log, request.ip);
      return reply.type('text/plain; charset=utf-8').send('OK');
    },
  );

  app.get(
    '/payments/payments/user',
    {
      preHandler: requireSession,
      schema: {
        tags: ['wallet'],
        summary: 'История начислений и списаний, новые сверху',
        description:
          'Каждая запись журнала (status completed) и ещё не зачисленные пополнения ' +
          '(pending, unfinished, failed, canceled). У ожидающего оплаты пополнения (pending) есть ' +
          '`continueUrl` — страница оплаты, открытая до `expiresAt`. Страницы: `limit` (1–100, по умолчанию 20) и `cursor` = ' +
          '`nextCursor` прошлой страницы; `nextCursor: null` — страниц больше нет. ' +
          'Фильтры: `direction` (accrual | writeOff), `currency` (rub | points).',
        security: [{ bearer: [] }],
        querystring: paymentHistoryQuerySchema,
        response: {
          200: paymentHistoryAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const { cursor, limit, direction, currency } = request.query;
      const { userId } = sessionOf(request);
      const page = JSON.stringify(['history', cursor, limit, direction, currency]);
      return deps.userReads.read(userId, page, () =>
        listHistory(deps.db, {
          userId,
          now: deps.clock.now(),
          cursor,
          limit: limit ?? 20,
          direction,
          currency,
        }),
      );
    },
  );

  app.get(
    '/payments/payments/user/csv',
    {
      preHandler: requireSession,
      schema: {
        tags: ['wallet'],
        summary: 'Вся история начислений и списаний файлом CSV',
        description:
          'Те же записи, что у `GET /payments/payments/user`, с теми же фильтрами `direction` и ' +
          '`currency`, все сразу, новые сверху: UTF-8 с BOM, разделитель `;`, даты ' +
          '«25.11.2026 14:05» в часовом поясе `timeZone` (по умолчанию Europe/Moscow), суммы с ' +
          'десятичной запятой и знаком списания. Открывается таблицей в Excel и LibreOffice.',
        security: [{ bearer: [] }],
        querystring: paymentHistoryExportQuerySchema,
        response: {
          200: {
            description: 'Файл CSV',
            content: { 'text/csv': { schema: z.any().meta({ type: 'string' }) } },
          },
          400: errorAnswerSchema,
          401: errorAnswerSchema,
        },
      },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      const now = deps.clock.now();
      const name = historyCsvFileName(now, request.query.timeZone);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(historyCsv(deps.db, { ...request.query, userId, now })));
    },
  );

  app.get(
    '/payments/receipts/:id',
    {
      preHandler: requireSession,
      schema: {
        tags: ['wallet'],
        summary: 'Кассовый чек пополнения или возврата',
        description:
          'Чек, который касса провайдера пробила по пополнению (приход) или его возврату ' +
          '(возврат прихода): фискальные реквизиты, строка QR-кода в формате ФНС ' +
          '(`t=…&s=…&fn=…&i=…&fp=…&n=…`) и сам QR-код (PNG, base64). Только свой: чужой — 404.',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        response: {
          200: receiptAnswerSchema,
          401: errorAnswerSchema,
          404: errorAnswerSchema.describe(RECEIPT_NOT_FOUND),
        },
      },
    },
    async (request) => {
      const row = await findOwnReceipt(deps.db, sessionOf(request).userId, request.params.id);
      if (!row) throw notFound(RECEIPT_NOT_FOUND);
      return receiptView(deps.config, row);
    },
  );
};
