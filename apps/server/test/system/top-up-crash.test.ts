/**
 * The portal is killed (SIGKILL) while a top-up waits for the provider's answer to Init: the
 * payment row exists, the provider has made the payment, but the portal never learnt its
 * PaymentId and the customer never got the page. After a restart, reconciliation finds the
 * payment by order (CheckOrder), cancels it at the provider, closes the row and releases its
 * idempotency key; the history says «Не завершён».
 */
import { randomInt } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { HISTORY_STATUS_TEXTS, type PaymentHistoryItem } from '@portal/contracts/wallet';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasValidTbankToken } from '../../src/adapters/tbank/token.js';
import { PAYMENT_IN_PROGRESS } from '../../src/modules/payments/messages.js';
import { startGiveUpAfterMs } from '../../src/modules/payments/reconcile.js';
import { REDIS_URL } from '../support/services.js';
import {
  type FakeTbank,
  startFakeTbank,
  type TbankCall,
  TERMINAL_KEY,
  TERMINAL_PASSWORD,
} from '../support/system/fake-tbank.js';
import { call, randomClientIp } from '../support/system/http.js';
import { createPortalUser, login, TOP_UP, walletOf } from '../support/system/portal.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/system/scratch-database.js';
import { type ServerProcess, startServer } from '../support/system/server-process.js';
import { waitFor } from '../support/wait-for.js';

const TIMEOUT_MS = 3000;

type ProviderPayment = {
  PaymentId: string;
  OrderId: string;
  Amount: number;
  Status: string;
};

/**
 * A stand-in for T-Bank that checks every request's signature, keeps the payments it makes, and
 * answers Init only when told to: `hold` makes the payment and never answers.
 */
let initMode: 'hold' | 'answer' = 'hold';
const made: ProviderPayment[] = [];
const calls: { method: string; body: Record<string, unknown> }[] = [];
let provider: FakeTbank;
let scratch: ScratchDatabase;
let server: ServerProcess;

const reply = (response: ServerResponse, fields: Record<string, unknown>) =>
  response
    .setHeader('content-type', 'application/json')
    .end(JSON.stringify({ TerminalKey: TERMINAL_KEY, ErrorCode: '0', Success: true, ...fields }));
const refuse = (response: ServerResponse, code: string, message: string) =>
  reply(response, { Success: false, ErrorCode: code, Message: message });

function answerProvider({ method, raw, response }: TbankCall) {
  const body = JSON.parse(raw) as Record<string, unknown>;
  calls.push({ method, body });
  if (body.TerminalKey !== TERMINAL_KEY || !hasValidTbankToken(body, TERMINAL_PASSWORD)) {
    return refuse(response, '204', 'Неверный токен');
  }
  if (method === 'Init') {
    const payment = {
      PaymentId: String(randomInt(1_000_000, 9_999_999)),
      OrderId: String(body.OrderId),
      Amount: Number(body.Amount),
      Status: 'NEW',
    };
    made.push(payment);
    if (initMode === 'hold') return; // the answer never comes: the portal is killed meanwhile
    return reply(response, {
      ...payment,
      PaymentURL: `https://securepay.example/new/${payment.PaymentId}`,
    });
  }
  if (method === 'CheckOrder') {
    const payments = made.filter((payment) => payment.OrderId === body.OrderId);
    if (payments.length === 0) return refuse(response, '7', 'Заказ не найден');
    return reply(response, {
      OrderId: body.OrderId,
      Payments: payments.map(({ PaymentId, Amount, Status }) => ({
        PaymentId,
        Amount,
        Status,
        Success: true,
        ErrorCode: '0',
      })),
    });
  }
  const payment = made.find((each) => each.PaymentId === String(body.PaymentId));
  if (!payment) return refuse(response, '7', 'Платёж не найден');
  if (method === 'Cancel') payment.Status = 'CANCELED';
  return reply(response, payment);
}

const portalEnv = () => ({
  DATABASE_URL: scratch.url,
  REDIS_URL,
  ...provider.env(TIMEOUT_MS),
});

beforeAll(async () => {
  provider = await startFakeTbank(answerProvider);
  scratch = await createScratchDatabase();
  server = await startServer(portalEnv());
});

afterAll(async () => {
  await server?.stop();
  await provider?.close();
  await scratch?.drop();
});

it('a top-up killed while waiting for Init is closed after a restart; its key works again', async () => {
  const user = await createPortalUser(scratch);
  const ip = randomClientIp();
  const token = await login(server.url, user, ip);
  const topUp = () =>
    call(server.url, 'POST', TOP_UP, {
      token,
      ip,
      body: { amount: 700 },
      headers: { 'idempotency-key': 'killed-mid-top-up' },
    });

  const interrupted = topUp();
  interrupted.catch(() => {});
  await waitFor('the provider to receive Init', () => made.length === 1);
  await server.kill();
  await expect(interrupted).rejects.toThrow();

  const [row] = await scratch.query<Record<string, unknown>>(
    `SELECT id, status, provider_payment_id, idempotency_key, created_at
     FROM payments WHERE user_id = $1`,
    [user.id],
  );
  expect(row).toMatchObject({
    id: made[0]!.OrderId,
    status: 'NEW',
    provider_payment_id: null,
    idempotency_key: 'killed-mid-top-up',
  });

  // Restarted with reconciliation every second; Init now answers.
  initMode = 'answer';
  server = await startServer({
    ...portalEnv(),
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '1',
  });
  // Within Init's timeout and its margin the first attempt might still be alive somewhere: the
  // key stays taken. (A slow restart may find it closed already; then the key works at once.)
  const early = await topUp();
  if (early.status !== 200) {
    expect([early.status, early.body]).toEqual([409, { message: PAYMENT_IN_PROGRESS }]);
  } else {
    const age = Date.now() - (row!.created_at as Date).getTime();
    expect(age).toBeGreaterThan(startGiveUpAfterMs({ TBANK_TIMEOUT_MS: TIMEOUT_MS }));
  }

  const closed = await waitFor(
    'reconciliation to close the interrupted top-up',
    async () => {
      const [current] = await scratch.query<Record<string, unknown>>(
        'SELECT status, provider_payment_id, idempotency_key FROM payments WHERE id = $1',
        [row!.id],
      );
      return current?.status === 'INIT_FAILED' && current;
    },
    { timeoutMs: 40_000, intervalMs: 200 },
  );
  expect(closed).toEqual({
    status: 'INIT_FAILED',
    provider_payment_id: made[0]!.PaymentId,
    idempotency_key: null,
  });
  // Found by order, then cancelled there, with the portal's signature.
  const byOrder = calls.find((each) => each.method === 'CheckOrder');
  expect(byOrder?.body).toMatchObject({ TerminalKey: TERMINAL_KEY, OrderId: row!.id });
  await waitFor('the cancel at the provider', () => made[0]!.Status === 'CANCELED');

  const retry = await topUp();
  expect(retry.status, JSON.stringify(retry.body)).toBe(200);
  expect(retry.body.data.paymentUrl).toBe(
    `https://securepay.example/new/${made.at(-1)!.PaymentId}`,
  );

  const history = await call(server.url, 'GET', '/payments/payments/user', { token, ip });
  const items = history.body.data as PaymentHistoryItem[];
  expect(items.map((item) => item.status)).toEqual(['pending', 'unfinished']);
  expect(HISTORY_STATUS_TEXTS[items[1]!.status as 'unfinished']).toBe('Не завершён');
  expect(items[1]).not.toHaveProperty('continueUrl');
  expect(await walletOf(scratch, user.id)).toEqual({ kopecks: 0, topUps: [] });
});
