import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../../db/database.js';
import type { Clock } from '../../clock.js';
import type { FetchLike } from '../client.js';
import { hasValidTbankToken } from '../token.js';
import { renderCheckoutPage, renderFinishedPage, renderNotFoundPage } from './checkout-page.js';
import { sendSandboxNotification } from './notify.js';
import { type SandboxPaymentRow, sandboxPayments } from './schema.js';

export interface SandboxOptions {
  db: Db;
  clock: Clock;
  /** Base of this sandbox as the browser reaches it, e.g. https://portal.example/sandbox/tbank. */
  publicBase: string;
  terminalKey: string;
  password: string;
  /** Sends notifications: global fetch, so they are real HTTP POSTs. */
  fetch: FetchLike;
}

const tbankRequestSchema = z.record(z.string(), z.unknown());
const tbankAnswerSchema = z.looseObject({
  Success: z.boolean(),
  ErrorCode: z.string(),
  TerminalKey: z.string().optional(),
  Message: z.string().optional(),
  Details: z.string().optional(),
});
type TbankAnswer = z.infer<typeof tbankAnswerSchema>;

const refuse = (code: string, message: string, details?: string): TbankAnswer => ({
  Success: false,
  ErrorCode: code,
  Message: message,
  ...(details ? { Details: details } : {}),
});

const WAITING = new Set(['NEW', 'FORM_SHOWED']);

/** What remains paid after a partial refund; the whole amount otherwise (see settlement.ts). */
const reportedAmount = (payment: SandboxPaymentRow) =>
  payment.status === 'PARTIAL_REFUNDED' ? payment.currentAmountKopecks : payment.amountKopecks;

/**
 * A stand-in for T-Bank acquiring, served by the portal itself: the v2 methods Init, GetQr,
 * GetState and Cancel with the same JSON and signatures, and a checkout page where a person
 * presses Оплатить or Отменить. Registered only when the sandbox is the chosen provider
 * (modules/payments/provider.ts); its pages say on every screen that nothing is really paid.
 */
export const sandboxRoutes: FastifyPluginAsyncZod<SandboxOptions> = async (app, options) => {
  const { db, clock, terminalKey, password, publicBase } = options;
  const notify = (payment: SandboxPaymentRow, status: string, amount: number) =>
    sendSandboxNotification({ db, fetch: options.fetch, password, log: app.log }, payment, {
      status,
      amount,
    });

  // The checkout form posts urlencoded fields; only this plugin's routes accept them.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  /** Checks terminal and token; answers the refusal, or null when the request is genuine. */
  function authenticate(body: Record<string, unknown>): TbankAnswer | null {
    if (body.TerminalKey !== terminalKey) return refuse('501', 'Терминал не найден');
    if (!hasValidTbankToken(body, password)) {
      return refuse('204', 'Неверный токен', 'Проверьте пару TerminalKey/SecretKey');
    }
    return null;
  }

  async function findPayment(paymentId: unknown): Promise<SandboxPaymentRow | null> {
    const id = Number(paymentId);
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    const [row] = await db
      .select()
      .from(sandboxPayments)
      .where(and(eq(sandboxPayments.id, id), eq(sandboxPayments.terminalKey, terminalKey)));
    return row ?? null;
  }

  /** Route options of a v2 API method: any JSON body in, a T-Bank answer out. */
  const apiMethod = (summary: string) =>
    ({
      schema: {
        tags: ['sandbox'],
        summary,
        body: tbankRequestSchema,
        response: { 200: tbankAnswerSchema },
      },
    }) as const;

  const accepted = (fields: Record<string, unknown>): TbankAnswer => ({
    Success: true,
    ErrorCode: '0',
    TerminalKey: terminalKey,
    ...fields,
  });

  app.post('/v2/Init', apiMethod('Песочница T-Bank: Init'), async (request) => {
    const body = request.body;
    const refusal = authenticate(body);
    if (refusal) return refusal;
    const amount = body.Amount;
    const orderId = body.OrderId;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
      return refuse('251', 'Неверная сумма');
    }
    if (typeof orderId !== 'string' || orderId.length === 0 || orderId.length > 36) {
      return refuse('9999', 'Неверный OrderId');
    }
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    const now = clock.now();
    const [row] = await db
      .insert(sandboxPayments)
      .values({
        checkoutToken: randomBytes(32).toString('base64url'),
        terminalKey,
        orderId,
        amountKopecks: amount,
        currentAmountKopecks: amount,
        description: text(body.Description) ?? '',
        notificationUrl: text(body.NotificationURL),
        successUrl: text(body.SuccessURL),
        failUrl: text(body.FailURL),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return accepted({
      Status: 'NEW',
      PaymentId: String(row!.id),
      OrderId: orderId,
      Amount: amount,
      // Like T-Bank's own PaymentURL, the address carries a random token, not the PaymentId.
      PaymentURL: `${publicBase}/pay/${row!.checkoutToken}`,
    });
  });

  app.post('/v2/GetQr', apiMethod('Песочница T-Bank: GetQr'), async (request) => {
    const refusal = authenticate(request.body);
    if (refusal) return refusal;
    const payment = await findPayment(request.body.PaymentId);
    if (!payment) return refuse('7', 'Платёж не найден');
    if (!WAITING.has(payment.status)) return refuse('8', 'Неверный статус транзакции');
    return accepted({
      OrderId: payment.orderId,
      PaymentId: payment.id,
      // Stands in for the NSPK link: opening it leads to the same checkout page.
      Data: `${publicBase}/pay/${payment.checkoutToken}?via=sbp`,
    });
  });

  app.post('/v2/GetState', apiMethod('Песочница T-Bank: GetState'), async (request) => {
    const refusal = authenticate(request.body);
    if (refusal) return refusal;
    const payment = await findPayment(request.body.PaymentId);
    if (!payment) return refuse('7', 'Платёж не найден');
    return accepted({
      Status: payment.status,
      PaymentId: String(payment.id),
      OrderId: payment.orderId,
      Amount: reportedAmount(payment),
    });
  });

  app.post(
    '/v2/Cancel',
    apiMethod('Песочница T-Bank: Cancel (отмена и возврат)'),
    async (request) => {
      const refusal = authenticate(request.body);
      if (refusal) return refusal;
      const requested = request.body.Amount;
      if (
        requested !== undefined &&
        (typeof requested !== 'number' || !Number.isSafeInteger(requested) || requested <= 0)
      ) {
        return refuse('251', 'Неверная сумма');
      }
      const outcome = await db.transaction(async (tx) => {
        const [payment] = await tx
          .select()
          .from(sandboxPayments)
          .where(
            and(
              eq(sandboxPayments.id, Number(request.body.PaymentId) || 0),
              eq(sandboxPayments.terminalKey, terminalKey),
            ),
          )
          .for('update');
        if (!payment) return refuse('7', 'Платёж не найден');
        let status: string;
        let remaining = payment.currentAmountKopecks;
        if (WAITING.has(payment.status)) {
          status = 'CANCELED';
        } else if (payment.status === 'CONFIRMED' || payment.status === 'PARTIAL_REFUNDED') {
          const refund = typeof requested === 'number' ? requested : remaining;
          if (refund > remaining) return refuse('8', 'Сумма возврата больше суммы платежа');
          remaining -= refund;
          status = remaining === 0 ? 'REFUNDED' : 'PARTIAL_REFUNDED';
        } else {
          return refuse('8', 'Неверный статус транзакции');
        }
        const [updated] = await tx
          .update(sandboxPayments)
          .set({ status, currentAmountKopecks: remaining, updatedAt: clock.now() })
          .where(eq(sandboxPayments.id, payment.id))
          .returning();
        return { payment: updated!, originalAmount: payment.currentAmountKopecks };
      });
      if ('Success' in outcome) return outcome;
      const { payment, originalAmount } = outcome;
      await notify(payment, payment.status, reportedAmount(payment));
      return accepted({
        Status: payment.status,
        PaymentId: String(payment.id),
        OrderId: payment.orderId,
        OriginalAmount: originalAmount,
        NewAmount: payment.currentAmountKopecks,
      });
    },
  );

  // ---------------------------------------------------------------- checkout page

  /** This page may post to itself and then send the browser back to the portal. */
  function pageHeaders(reply: FastifyReply, payment: SandboxPaymentRow | null) {
    const origins = new Set<string>();
    for (const url of [payment?.successUrl, payment?.failUrl]) {
      if (!url) continue;
      try {
        origins.add(new URL(url).origin);
      } catch {}
    }
    reply
      .header(
        'content-security-policy',
        [
          "default-src 'none'",
          "style-src 'unsafe-inline'",
          `form-action 'self' ${[...origins].join(' ')}`.trim(),
          "frame-ancestors 'none'",
          "base-uri 'none'",
        ].join('; '),
      )
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8');
  }

  // Any string: an old numeric link or a wrong token is a 404 page, like a token never issued.
  const paramsSchema = z.object({ checkoutToken: z.string().max(100) });

  /** The checkout link is the only key to a page: it finds the payment, nothing else does. */
  const byCheckoutToken = (checkoutToken: string) =>
    and(
      eq(sandboxPayments.checkoutToken, checkoutToken),
      eq(sandboxPayments.terminalKey, terminalKey),
    );

  app.get(
    '/pay/:checkoutToken',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Песочница T-Bank: страница оплаты',
        params: paramsSchema,
        querystring: z.object({ via: z.enum(['sbp']).optional() }),
        response: { 200: z.string(), 404: z.string() },
      },
    },
    async (request, reply) => {
      const [payment = null] = await db
        .select()
        .from(sandboxPayments)
        .where(byCheckoutToken(request.params.checkoutToken));
      pageHeaders(reply, payment);
      if (!payment) return reply.status(404).send(renderNotFoundPage());
      if (!WAITING.has(payment.status)) return renderFinishedPage(payment);
      if (payment.status === 'NEW') {
        await db
          .update(sandboxPayments)
          .set({ status: 'FORM_SHOWED', updatedAt: clock.now() })
          .where(and(eq(sandboxPayments.id, payment.id), eq(sandboxPayments.status, 'NEW')));
      }
      return renderCheckoutPage(payment, {
        formAction: `${app.prefix}/pay/${payment.checkoutToken}`,
        isSbp: request.query.via === 'sbp',
      });
    },
  );

  app.post(
    '/pay/:checkoutToken',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Песочница T-Bank: «Оплатить» или «Отменить»',
        params: paramsSchema,
        body: z.object({ action: z.enum(['pay', 'cancel']) }),
        response: { 200: z.string(), 303: z.null(), 404: z.string() },
      },
    },
    async (request, reply) => {
      const nextStatus = request.body.action === 'pay' ? 'CONFIRMED' : 'CANCELED';
      const changed = await db.transaction(async (tx) => {
        const [payment] = await tx
          .select()
          .from(sandboxPayments)
          .where(byCheckoutToken(request.params.checkoutToken))
          .for('update');
        if (!payment || !WAITING.has(payment.status)) return { payment, isChanged: false };
        const [updated] = await tx
          .update(sandboxPayments)
          .set({ status: nextStatus, updatedAt: clock.now() })
          .where(eq(sandboxPayments.id, payment.id))
          .returning();
        return { payment: updated, isChanged: true };
      });
      const payment = changed.payment;
      pageHeaders(reply, payment ?? null);
      if (!payment) return reply.status(404).send(renderNotFoundPage());
      if (changed.isChanged) await notify(payment, payment.status, payment.amountKopecks);
      const back = payment.status === 'CONFIRMED' ? payment.successUrl : payment.failUrl;
      if (!back) return renderFinishedPage(payment);
      return reply.status(303).header('location', back).send(null);
    },
  );
};
