import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FetchLike } from '../../adapters/tbank/client.js';
import { signTbankRequest } from '../../adapters/tbank/token.js';
import type { Db } from '../../db/database.js';
import { type SandboxPaymentRow, sandboxPayments } from './schema.js';

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
      TerminalKey: payment.terminalKey,
      OrderId: payment.orderId,
      Success: true,
      Status: report.status,
      PaymentId: payment.id,
      ErrorCode: '0',
      Amount: report.amount,
      CardId: 100_500,
      Pan: '430000******0777',
      ExpDate: '1230',
    },
    context.password,
  );
  let isDelivered = false;
  try {
    const response = await context.fetch(payment.notificationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    isDelivered = response.status === 200 && (await response.text()) === 'OK';
  } catch (error) {
    context.log.warn(
      { err: error, orderId: payment.orderId },
      'sandbox notification not delivered',
    );
  }
  if (!isDelivered) {
    context.log.warn({ orderId: payment.orderId }, 'sandbox notification was not answered OK');
  }
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
      TerminalKey: payment.terminalKey,
      OrderId: payment.orderId,
      Success: true,
      Status: 'RECEIPT',
      PaymentId: payment.id,
      ErrorCode: '0',
      Amount: document.amount,
      ...document.fiscal,
      Type: document.type,
      Ofd: 'Тестовый ОФД',
      Receipt: document.receipt,
    },
    context.password,
  );
  try {
    const response = await context.fetch(payment.notificationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status === 200 && (await response.text()) === 'OK') return true;
  } catch (error) {
    context.log.warn({ err: error, orderId: payment.orderId }, 'sandbox receipt not delivered');
    return false;
  }
  context.log.warn({ orderId: payment.orderId }, 'sandbox receipt was not answered OK');
  return false;
}
