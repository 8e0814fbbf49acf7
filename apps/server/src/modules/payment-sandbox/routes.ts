import { errorAnswerSchema } from '@portal/contracts/common';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  renderCheckoutPage,
  renderFinishedPage,
  renderNotFoundPage,
  returnUrlOf,
} from './checkout-page.js';
import type { SandboxPaymentRow } from './schema.js';
import {
  isWaiting,
  SANDBOX_METHODS,
  type SandboxMethod,
  type SandboxTerminal,
} from './terminal.js';

export interface SandboxRoutesOptions {
  terminal: SandboxTerminal;
}

/**
 * The v2 requests with the fields the sandbox reads, typed as T-Bank documents them (and as
 * adapters/tbank/client.ts sends them); other fields pass. The values (a positive amount, a known
 * payment) are the terminal's to judge: it refuses in T-Bank's own answer, as the bank does.
 */
const signed = { TerminalKey: z.string(), Token: z.string() };
const paymentId = z.union([z.string(), z.number()]);
const tbankRequestSchemas: Record<SandboxMethod, z.ZodType> = {
  Init: z.looseObject({
    ...signed,
    Amount: z.number().describe('Копейки'),
    OrderId: z.string(),
    Description: z.string().optional(),
    NotificationURL: z.string().optional(),
    SuccessURL: z.string().optional(),
    FailURL: z.string().optional(),
    RedirectDueDate: z.string().optional(),
  }),
  GetQr: z.looseObject({ ...signed, PaymentId: paymentId, DataType: z.string().optional() }),
  GetState: z.looseObject({ ...signed, PaymentId: paymentId }),
  CheckOrder: z.looseObject({ ...signed, OrderId: z.string() }),
  Cancel: z.looseObject({
    ...signed,
    PaymentId: paymentId,
    Amount: z.number().describe('Копейки; без него — вся сумма').optional(),
  }),
};
const tbankAnswerSchema = z.looseObject({
  Success: z.boolean(),
  ErrorCode: z.string(),
  TerminalKey: z.string().optional(),
  Message: z.string().optional(),
  Details: z.string().optional(),
});

/** Extra words of a method's summary in the OpenAPI page. */
const SUMMARY_NOTE: Partial<Record<string, string>> = { Cancel: ' (отмена и возврат)' };

/**
 * The sandbox over HTTP, under SANDBOX_PATH: the terminal's v2 methods (terminal.ts) for anyone
 * who calls them as T-Bank's API, and the checkout page where a person presses Оплатить or
 * Отменить. Registered only when the sandbox is the chosen provider (plugin.ts); its pages say on
 * every screen that nothing is really paid.
 */
export const sandboxRoutes: FastifyPluginAsyncZod<SandboxRoutesOptions> = async (app, options) => {
  const { terminal } = options;

  // The checkout form posts urlencoded fields; only this plugin's routes accept them.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  for (const method of SANDBOX_METHODS) {
    app.post(
      `/v2/${method}`,
      {
        schema: {
          tags: ['sandbox'],
          summary: `Песочница T-Bank: ${method}${SUMMARY_NOTE[method] ?? ''}`,
          consumes: ['application/json'],
          body: tbankRequestSchemas[method],
          response: { 200: tbankAnswerSchema, 400: errorAnswerSchema },
        },
      },
      async (request) => terminal.answer(method, request.body as Record<string, unknown>),
    );
  }

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
  const page = (description: string) => ({
    description,
    content: { 'text/html': { schema: z.string() } },
  });

  app.get(
    '/pay/:checkoutToken',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Песочница T-Bank: страница оплаты',
        params: paramsSchema,
        querystring: z.object({ via: z.enum(['sbp']).optional() }),
        response: {
          200: page('Страница оплаты, или итог уже закрытого платежа'),
          400: errorAnswerSchema,
          404: page('Такой ссылки нет'),
        },
      },
    },
    async (request, reply) => {
      const payment = await terminal.openCheckout(request.params.checkoutToken);
      pageHeaders(reply, payment);
      if (!payment) return reply.status(404).send(renderNotFoundPage());
      if (!isWaiting(payment)) return renderFinishedPage(payment);
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
        // The checkout page's own form.
        consumes: ['application/x-www-form-urlencoded'],
        body: z.object({ action: z.enum(['pay', 'cancel']) }),
        response: {
          200: page('Итог, когда портал не дал адреса возврата'),
          303: z.null().describe('Обратно на портал: на адрес успеха или неудачи'),
          400: errorAnswerSchema,
          404: page('Такой ссылки нет'),
        },
      },
    },
    async (request, reply) => {
      const payment = await terminal.press(request.params.checkoutToken, request.body.action);
      pageHeaders(reply, payment);
      if (!payment) return reply.status(404).send(renderNotFoundPage());
      const back = returnUrlOf(payment);
      if (!back) return renderFinishedPage(payment);
      return reply.redirect(back, 303);
    },
  );
};
