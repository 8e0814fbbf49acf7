/**
 * The payment provider refuses or does not answer. The user gets 503 'Ошибка при
 * отправке запроса. …' in time, and nothing is recorded as paid. The same through app.inject with
 * a fake fetch is in src/modules/payments/top-up.test.ts ("the provider fails"); here it is a real
 * server process talking real HTTP to a provider (TBANK_API_URL) that hangs, fails or refuses, with
 * the real timeout (TBANK_TIMEOUT_MS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_PROVIDER_UNAVAILABLE } from '../../src/modules/payments/messages.js';
import { REDIS_URL } from '../support/services.js';
import {
  type FakeTbank,
  startFakeTbank,
  type TbankCall,
  TERMINAL_KEY,
} from '../support/system/fake-tbank.js';
import { call, randomClientIp } from '../support/system/http.js';
import { createPortalUser, login, TOP_UP, walletOf } from '../support/system/portal.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/system/scratch-database.js';
import { type ServerProcess, startServer } from '../support/system/server-process.js';

type Mode = 'hang' | 'http500' | 'refuse' | 'reset' | 'accept';

/** A stand-in for T-Bank's API whose behaviour the test switches. */
let mode: Mode = 'hang';
const received: { method: string; mode: Mode }[] = [];
let provider: FakeTbank;
let scratch: ScratchDatabase;
let server: ServerProcess;

function answerProvider({ method, raw, request, response }: TbankCall) {
  received.push({ method, mode });
  if (mode === 'hang') return; // never answers; the portal must give up by itself
  if (mode === 'reset') return request.socket.destroy();
  if (mode === 'http500') return response.writeHead(500).end('Internal Server Error');
  response.setHeader('content-type', 'application/json');
  if (mode === 'refuse') {
    return response.end(
      JSON.stringify({ Success: false, ErrorCode: '9999', Message: 'Внутренняя ошибка' }),
    );
  }
  const body = JSON.parse(raw) as { Amount: number; OrderId: string };
  response.end(
    JSON.stringify({
      Success: true,
      ErrorCode: '0',
      TerminalKey: TERMINAL_KEY,
      Status: 'NEW',
      PaymentId: '700001',
      OrderId: body.OrderId,
      Amount: body.Amount,
      PaymentURL: 'https://securepay.example/new/700001',
    }),
  );
}

beforeAll(async () => {
  provider = await startFakeTbank(answerProvider);
  scratch = await createScratchDatabase();
  server = await startServer({ DATABASE_URL: scratch.url, REDIS_URL, ...provider.env(1000) });
});

afterAll(async () => {
  await server?.stop();
  await provider?.close();
  await scratch?.drop();
});

describe('top-up while the provider fails', () => {
  it('answers 503 with the Russian message and records nothing as paid', async () => {
    const user = await createPortalUser(scratch);
    const token = await login(server.url, user, randomClientIp());

    for (const failure of ['hang', 'http500', 'refuse', 'reset'] as const) {
      mode = failure;
      const started = Date.now();
      const answer = await call(server.url, 'POST', TOP_UP, {
        token,
        body: { amount: 500 },
        headers: { 'idempotency-key': 'system-fault' },
      });
      expect(answer.status, failure).toBe(503);
      expect(answer.body).toEqual({ message: PAYMENT_PROVIDER_UNAVAILABLE });
      expect(answer.body.message).toMatch(/^Ошибка при отправке запроса\./);
      // A hanging provider costs the user TBANK_TIMEOUT_MS, not the browser's patience.
      expect(Date.now() - started, failure).toBeLessThan(10_000);
      expect(received.at(-1), failure).toEqual({ method: 'Init', mode: failure });
    }

    const rows = await scratch.query<{ status: string; credited_at: Date | null; key: string }>(
      'SELECT status, credited_at, idempotency_key AS key FROM payments WHERE user_id = $1',
      [user.id],
    );
    expect(rows).toEqual(
      Array.from({ length: 4 }, () => ({ status: 'INIT_FAILED', credited_at: null, key: null })),
    );
    expect(await walletOf(scratch, user.id)).toEqual({ kopecks: 0, topUps: [] });
    // Shown as unfinished, never as waiting for payment.
    const history = await call(server.url, 'GET', '/payments/payments/user', { token });
    expect(history.body.data.map((item: { status: string }) => item.status)).toEqual(
      Array.from({ length: 4 }, () => 'unfinished'),
    );

    // The provider is back: the same key starts a payment, with no restart of the portal.
    mode = 'accept';
    const retry = await call(server.url, 'POST', TOP_UP, {
      token,
      body: { amount: 500 },
      headers: { 'idempotency-key': 'system-fault' },
    });
    expect(retry.status).toBe(200);
    expect(retry.body.data.paymentUrl).toBe('https://securepay.example/new/700001');
    expect(await walletOf(scratch, user.id)).toEqual({ kopecks: 0, topUps: [] });
  });
});
