import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FetchLike } from '../../adapters/tbank/client.js';
import { signTbankRequest } from '../../adapters/tbank/token.js';
import type { Db } from '../../db/database.js';
import { type SandboxPaymentRow, sandboxPayments } from './schema.js';

/** What every notification of a payment starts with, as T-Bank's do. */
const aboutPayment = (payment: SandboxPaymentRow, status: string) => ({
  TerminalKey: payment.terminalKey,
  OrderId: payment.orderId,
  Success: true,
  Status: status,
  PaymentId: payment.id,
  ErrorCode: '0',
});

/**
 * Sends the signed notification T-Bank would send, as a real HTTP POST to the payment's
 * NotificationURL, and counts it delivered only on HTTP 200 with the body `OK`. An undelivered
 * notification is not retried here: the portal's reconciliation (GetState) settles the payment.
 */
export async function sendSandboxNotification(
  context: { db: Db; fetch: FetchLike; password: string; log: FastifyBaseLogger },
  payment: SandboxPaymentRow,
  report: { status: string; amount: number },
): Promise<boolean> {
  if (!payment.notificationUrl) return false;
  const body = signTbankRequest(
    {
      ...aboutPayment(payment, report.status),
      Amount: report.amount,
      CardId: 100_500,
      Pan: '430000******0777',
      ExpDate: '1230',
    },
    context.password,
  );
  const isDelivered = await post(
    context,
    payment.notificationUrl,
    payment.orderId,
    body,
    'notification',
  );
  await context.db
    .update(sandboxPayments)
    .set({ isNotified: isDelivered })
    .where(eq(sandboxPayments.id, payment.id));
  return isDelivered;
}

/**
 * The signed fiscalization notification T-Bank sends once its register has printed a receipt
 * (`NotificationFiscalization`: Status RECEIPT, the fiscal fields, the receipt itself, and Type
 * `Income` or `IncomeReturn`). The nested `Receipt` is not covered by the Token, as in requests.
 */
export async function sendSandboxFiscalization(
  context: { fetch: FetchLike; password: string; log: FastifyBaseLogger },
  payment: SandboxPaymentRow,
  document: {
    type: 'Income' | 'IncomeReturn';
    amount: number;
    receipt: Record<string, unknown>;
    fiscal: Record<string, string | number>;
  },
): Promise<boolean> {
  if (!payment.notificationUrl) return false;
  const body = signTbankRequest(
    {
      ...aboutPayment(payment, 'RECEIPT'),
      Amount: document.amount,
      ...document.fiscal,
      Type: document.type,
      Ofd: 'Тестовый ОФД',
      Receipt: document.receipt,
    },
    context.password,
  );
  return post(context, payment.notificationUrl, payment.orderId, body, 'receipt');
}

/**
 * POSTs a signed body to the payment's NotificationURL: delivered, as T-Bank counts it, only on
 * HTTP 200 with the body `OK`. A failure is logged, never thrown: reconciliation settles later.
 */
async function post(
  context: { fetch: FetchLike; log: FastifyBaseLogger },
  url: string,
  orderId: string,
  body: unknown,
  what: 'notification' | 'receipt',
): Promise<boolean> {
  try {
    const response = await context.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status === 200 && (await response.text()) === 'OK') return true;
    context.log.warn({ orderId }, `sandbox ${what} was not answered OK`);
  } catch (error) {
    context.log.warn({ err: error, orderId }, `sandbox ${what} not delivered`);
  }
  return false;
}
