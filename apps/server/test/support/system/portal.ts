import { expect } from 'vitest';
import { signTbankRequest } from '../../../src/adapters/tbank/token.js';
import {
  SANDBOX_TERMINAL_KEY,
  sandboxPassword,
} from '../../../src/modules/payment-sandbox/terminal.js';
import { createUser, DEFAULT_PASSWORD } from '../fixtures.js';
import { SYSTEM_SECRET_KEY } from '../services.js';
import { call } from './http.js';
import type { ScratchDatabase, Sql } from './scratch-database.js';

export const API = '/authms/api/Auth';
export const TOP_UP = '/paymentms/api/Payment/create';
export const NOTIFICATION = '/paymentms/api/Payment/notification';

/** A confirmed user written straight to the test's database (password DEFAULT_PASSWORD). */
export function createPortalUser(scratch: ScratchDatabase) {
  return createUser(scratch);
}

/** Signs in through a server's login route; answers the bearer token. */
export async function login(base: string, user: { userName: string }, ip: string): Promise<string> {
  const answer = await call(base, 'POST', `${API}/login`, {
    body: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
    ip,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.token as string;
}

export interface PendingPayment {
  id: string;
  providerPaymentId: string;
  amountKopecks: number;
}

/** A card top-up through the route (the sandbox provider answers Init); the pending payment. */
export async function startTopUp(
  base: string,
  token: string,
  db: Sql,
  roubles: number,
): Promise<PendingPayment> {
  const answer = await call(base, 'POST', TOP_UP, { token, body: { amount: roubles } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.data.paymentUrl).toMatch(/\/sandbox\/tbank\/pay\//);
  const rows = await db.query<{ id: string; provider_payment_id: string; amount_kopecks: string }>(
    'SELECT id, provider_payment_id, amount_kopecks FROM payments WHERE redirect_url = $1',
    [answer.body.data.paymentUrl],
  );
  const [row] = rows;
  if (!row?.provider_payment_id) throw new Error('no pending payment with a provider id');
  return {
    id: row.id,
    providerPaymentId: row.provider_payment_id,
    amountKopecks: Number(row.amount_kopecks),
  };
}

/** The body T-Bank (here: the sandbox terminal) would POST about the payment, signed. */
export function signedNotification(payment: PendingPayment, status = 'CONFIRMED'): string {
  return JSON.stringify(
    signTbankRequest(
      {
        TerminalKey: SANDBOX_TERMINAL_KEY,
        OrderId: payment.id,
        Success: true,
        Status: status,
        PaymentId: Number(payment.providerPaymentId),
        ErrorCode: '0',
        Amount: payment.amountKopecks,
        Pan: '430000******0777',
        ExpDate: '1230',
        CardId: 1,
      },
      sandboxPassword({ SECRET_KEY: SYSTEM_SECRET_KEY }),
    ),
  );
}

/** Balance, and the top-up entries of the ledger, straight from the database. */
export async function walletOf(db: Sql, userId: string) {
  const balance = await db.query<{ balance_kopecks: string }>(
    'SELECT balance_kopecks FROM users WHERE id = $1',
    [userId],
  );
  const entries = await db.query<{ amount: string; reference: string }>(
    `SELECT amount, reference FROM ledger_entries WHERE user_id = $1 AND kind = 'topUp'`,
    [userId],
  );
  return {
    kopecks: Number(balance[0]?.balance_kopecks),
    topUps: entries.map((row) => ({ amount: Number(row.amount), reference: row.reference })),
  };
}
