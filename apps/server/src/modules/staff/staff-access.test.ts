// Who may call the support desk: every staff call × {no token, a customer, support, finance,
// admin}, the 404 that looks like an unknown address, and the staff proof (passkey or
// authenticator, never a password) that lapses after STAFF_PROOF_MINUTES. The app's payments
// answer in-process (createWalletTestApp), so the money calls refund and reconcile real top-ups.

import { randomUUID } from 'node:crypto';
import { STAFF_PROOF_MINUTES, STAFF_PROOF_REQUIRED, staffCan } from '@portal/contracts/staff';
import { beforeAll, describe, expect, it } from 'vitest';
import { proveSession } from '../../../test/support/auth-helpers.js';
import { createSignedInUser, createUser } from '../../../test/support/fixtures.js';
import {
  cliActor,
  createStaffMember,
  proveStaff,
  STAFF_API,
  type StaffMemberFixture,
} from '../../../test/support/staff.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { createWalletTestApp, paidTopUp } from '../../../test/support/wallet.js';
import { mailOutbox } from '../../adapters/mail-schema.js';

type Caller = 'none' | 'customer' | 'support' | 'finance' | 'admin';
const CALLERS: Caller[] = ['none', 'customer', 'support', 'finance', 'admin'];

interface StaffCall {
  method: 'GET' | 'POST';
  /** The address; a fresh account or letter for each call where it changes one. */
  url: (t: TestApp) => Promise<string>;
  /** A function: a fresh body for each caller (an idempotency key). */
  body?: Record<string, unknown> | (() => Record<string, unknown>);
  /** What a member allowed to call it gets (callers without the ability get 404). */
  allowed: number;
  ability: 'support' | 'money' | 'admin';
}

const reason = { reason: 'обращение 42' };
const freshAccount = async (t: TestApp, path: string) =>
  `${STAFF_API}/accounts/${(await createUser(t)).id}${path}`;
async function stuckLetter(t: TestApp) {
  const [row] = await t.database.db
    .insert(mailOutbox)
    .values({
      toAddress: 'someone@example.com',
      subject: 'письмо',
      textBody: 'текст',
      htmlBody: '<p>текст</p>',
      status: 'failed',
      attempts: 9,
    })
    .returning();
  return `${STAFF_API}/letters/${row!.id}/resend`;
}
const freshPayment = async (t: TestApp, path: string) =>
  `${STAFF_API}/payments/${(await paidTopUp(t, 100)).payment.id}${path}`;
/** A request of the command line's (above the threshold), for another member to decide. */
async function freshRequest(t: TestApp, decision: 'approve' | 'decline') {
  const made = await t.app.deps.staffMoney.correct(cliActor(), {
    accountId: (await createUser(t)).id,
    direction: 'credit',
    currency: 'rub',
    amount: 200_000,
    idempotencyKey: randomUUID(),
  });
  if (made.status !== 'pending') throw new Error('expected a request');
  return `${STAFF_API}/money-requests/${made.requestId}/${decision}`;
}
const moneyKey = () => ({ ...reason, idempotencyKey: randomUUID() });

const CALLS: Record<string, StaffCall> = {
  me: { method: 'GET', url: async () => `${STAFF_API}/me`, allowed: 200, ability: 'support' },
  proof: {
    method: 'POST',
    url: async () => `${STAFF_API}/proof`,
    body: { code: '000000' },
    allowed: 400,
    ability: 'support',
  },
  'proof/passkey/options': {
    method: 'POST',
    url: async () => `${STAFF_API}/proof/passkey/options`,
    allowed: 200,
    ability: 'support',
  },
  'proof/passkey': {
    method: 'POST',
    url: async () => `${STAFF_API}/proof/passkey`,
    body: {
      credential: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
        clientExtensionResults: {},
      },
    },
    allowed: 400,
    ability: 'support',
  },
  search: {
    method: 'GET',
    url: async () => `${STAFF_API}/accounts?q=nobody@example.com`,
    allowed: 200,
    ability: 'support',
  },
  account: { method: 'GET', url: (t) => freshAccount(t, ''), allowed: 200, ability: 'support' },
  unlock: {
    method: 'POST',
    url: (t) => freshAccount(t, '/unlock'),
    body: reason,
    allowed: 200,
    ability: 'support',
  },
  'end-sessions': {
    method: 'POST',
    url: (t) => freshAccount(t, '/end-sessions'),
    body: reason,
    allowed: 200,
    ability: 'support',
  },
  block: {
    method: 'POST',
    url: (t) => freshAccount(t, '/block'),
    body: reason,
    allowed: 200,
    ability: 'support',
  },
  unblock: {
    method: 'POST',
    url: (t) => freshAccount(t, '/unblock'),
    body: reason,
    allowed: 409,
    ability: 'support',
  },
  'factor-reset/code': {
    method: 'POST',
    url: (t) => freshAccount(t, '/factor-reset/code'),
    body: reason,
    allowed: 200,
    ability: 'support',
  },
  'factor-reset': {
    method: 'POST',
    url: (t) => freshAccount(t, '/factor-reset'),
    body: { ...reason, code: '123456' },
    allowed: 400,
    ability: 'support',
  },
  'payment receipts': {
    method: 'GET',
    url: (t) => freshPayment(t, '/receipts'),
    allowed: 200,
    ability: 'support',
  },
  'letters resend': {
    method: 'POST',
    url: stuckLetter,
    body: reason,
    allowed: 200,
    ability: 'support',
  },
  roles: { method: 'GET', url: async () => `${STAFF_API}/roles`, allowed: 200, ability: 'admin' },
  grant: {
    method: 'POST',
    url: async () => `${STAFF_API}/roles`,
    // An account without a passkey or the authenticator: STAFF_NEEDS_FACTOR.
    body: { email: 'no-factor@example.com', role: 'support', ...reason },
    allowed: 409,
    ability: 'admin',
  },
  revoke: {
    method: 'POST',
    url: async (t) => `${STAFF_API}/roles/${(await createUser(t)).id}/revoke`,
    body: reason,
    allowed: 409,
    ability: 'admin',
  },
  correction: {
    method: 'POST',
    url: (t) => freshAccount(t, '/correction'),
    body: () => ({ direction: 'credit', currency: 'rub', amount: 10, ...moneyKey() }),
    allowed: 200,
    ability: 'money',
  },
  refund: {
    method: 'POST',
    url: (t) => freshPayment(t, '/refund'),
    body: moneyKey,
    allowed: 200,
    ability: 'money',
  },
  reconcile: {
    method: 'POST',
    url: (t) => freshPayment(t, '/reconcile'),
    body: reason,
    allowed: 200,
    ability: 'money',
  },
  'money-requests': {
    method: 'GET',
    url: async () => `${STAFF_API}/money-requests?status=all`,
    allowed: 200,
    ability: 'money',
  },
  'money-requests approve': {
    method: 'POST',
    url: (t) => freshRequest(t, 'approve'),
    body: reason,
    allowed: 200,
    ability: 'money',
  },
  'money-requests decline': {
    method: 'POST',
    url: (t) => freshRequest(t, 'decline'),
    body: reason,
    allowed: 200,
    ability: 'money',
  },
  audit: { method: 'GET', url: async () => `${STAFF_API}/audit`, allowed: 200, ability: 'admin' },
  'audit.csv': {
    method: 'GET',
    url: async () => `${STAFF_API}/audit.csv`,
    allowed: 200,
    ability: 'admin',
  },
};

let t: TestApp;
const headersOf: Record<Caller, Record<string, string>> = {
  none: {},
  customer: {},
  support: {},
  finance: {},
  admin: {},
};

beforeAll(async () => {
  t = await createWalletTestApp();
  await createUser(t, { email: 'no-factor@example.com' });
  headersOf.customer = (await createSignedInUser(t)).headers;
  for (const role of ['support', 'finance', 'admin'] as const) {
    headersOf[role] = (await createStaffMember(t, role)).headers;
  }
});

describe('every staff call, by who calls', () => {
  const canCall = (caller: Caller, ability: StaffCall['ability']) =>
    caller !== 'none' && caller !== 'customer' && staffCan(caller, ability);

  it.each(Object.entries(CALLS))('%s', async (_name, call) => {
    const unknown = await t.app.inject({ method: call.method, url: `${STAFF_API}/none-such` });
    const answers: Record<string, number> = {};
    const expected: Record<string, number> = {};
    for (const caller of CALLERS) {
      const answer = await t.app.inject({
        method: call.method,
        url: await call.url(t),
        headers: headersOf[caller],
        ...(call.body
          ? { payload: typeof call.body === 'function' ? call.body() : call.body }
          : {}),
      });
      answers[caller] = answer.statusCode;
      expected[caller] = canCall(caller, call.ability) ? call.allowed : 404;
      if (answer.statusCode === 404 && !canCall(caller, call.ability)) {
        // The very answer of an unknown address: the area gives no sign that it exists.
        expect(answer.body).toBe(unknown.body);
        expect(answer.headers['content-type']).toBe(unknown.headers['content-type']);
      }
    }
    expect(answers).toEqual(expected);
  });

  it('answers a customer 404 before reading the body: a wrong body is no hint either', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: `${STAFF_API}/accounts/${randomUUID()}/block`,
      headers: headersOf.customer,
      payload: { reason: 1 },
    });
    expect(answer.statusCode).toBe(404);
  });
});

describe('the staff proof', () => {
  let member: StaffMemberFixture;
  const search = () =>
    t.app.inject({
      method: 'GET',
      url: `${STAFF_API}/accounts?q=someone`,
      headers: member.headers,
    });

  beforeAll(async () => {
    member = await createStaffMember(t, 'support', { isProven: false });
  });

  it('is asked first; a password proof does not count; the code does, for 10 minutes', async () => {
    const refused = await search();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: STAFF_PROOF_REQUIRED,
      reason: 'staff_proof_required',
    });
    const me = await t.app.inject({
      method: 'GET',
      url: `${STAFF_API}/me`,
      headers: member.headers,
    });
    expect(me.json()).toMatchObject({
      role: 'support',
      proofMethods: ['authenticator'],
      provenUntil: null,
    });

    // The customer's proof by password (auth/recent-proof.ts) is not the staff's.
    await proveSession(t, member.headers);
    expect((await search()).statusCode).toBe(403);

    await proveStaff(t, member);
    expect((await search()).statusCode).toBe(200);
    t.clock.advance(STAFF_PROOF_MINUTES * 60_000 - 1_000);
    expect((await search()).statusCode).toBe(200);
    t.clock.advance(2_000);
    const lapsed = await search();
    expect(lapsed.statusCode).toBe(403);
    expect(lapsed.json().reason).toBe('staff_proof_required');
  });

  it('refuses a wrong code with 400 and proves nothing', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: `${STAFF_API}/proof`,
      headers: member.headers,
      payload: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect((await search()).statusCode).toBe(403);
  });
});

describe('STAFF_URL', () => {
  it('answers the staff calls only at its host; the rest at both', async () => {
    const staffHost = await createTestApp({ config: { STAFF_URL: 'https://desk.portal.test' } });
    const admin = await createStaffMember(staffHost, 'admin', { isProven: false });
    await proveStaff(staffHost, admin, { host: 'desk.portal.test' });
    const me = (host: string) =>
      staffHost.app.inject({
        method: 'GET',
        url: `${STAFF_API}/me`,
        headers: { ...admin.headers, host },
      });
    expect((await me('desk.portal.test')).statusCode).toBe(200);
    expect((await me('portal.test')).statusCode).toBe(404);
    for (const host of ['desk.portal.test', 'portal.test']) {
      const user = await staffHost.app.inject({
        method: 'POST',
        url: '/authms/api/Auth/user',
        headers: { ...admin.headers, host },
      });
      expect(user.statusCode).toBe(200);
    }
  });
});
