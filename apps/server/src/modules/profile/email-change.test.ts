import { CODE_WRONG, EMAIL_INVALID, TOO_MANY_ATTEMPTS } from '@portal/contracts/messages';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, createUser, signIn } from '../../../test/support/fixtures.js';
import { codeIn, startSmtpServer } from '../../../test/support/smtp-server.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { users } from '../accounts/schema.js';
import { oneTimeCodes } from '../auth/schema.js';
import { PROFILE_MESSAGES } from './messages.js';
import { CURRENT_CONFIRMATION_TTL_MS, NEW_EMAIL_LIMITS } from './profile-service.js';
import { emailChanges } from './schema.js';

// A real SMTP exchange: letters are read from what the local server received.
const smtp = await startSmtpServer();
const testApp = await createTestApp({ config: { SMTP_URL: smtp.url } });
const { app, clock, database } = testApp;

const call = (headers: Record<string, string>, step: string, payload?: object) =>
  app.inject({
    method: 'POST',
    url: `/authms/api/Auth/email-change/${step}`,
    headers,
    ...(payload ? { payload } : {}),
  });

/** Steps 1–2 done for this session without their letters: the row step 2 writes. */
async function openNewEmailStep(userId: string, sessionId: string) {
  await database.db
    .insert(emailChanges)
    .values({ userId, sessionId, currentConfirmedAt: clock.now() });
}

/** How many new-address codes these accounts were issued. */
async function newEmailCodesOf(userIds: string[]) {
  const rows = await database.db
    .select()
    .from(oneTimeCodes)
    .where(
      and(eq(oneTimeCodes.purpose, 'email-change-new'), inArray(oneTimeCodes.userId, userIds)),
    );
  return rows.length;
}

const storedEmail = async (id: string) =>
  (await database.db.select().from(users).where(eq(users.id, id)))[0]?.email;

/** Steps 1–2: a code to the current address, confirmed. */
async function confirmCurrent(headers: Record<string, string>, email: string) {
  const sent = await call(headers, 'request-code');
  expect(sent.statusCode).toBe(200);
  expect(sent.json()).toEqual({ message: PROFILE_MESSAGES.currentCodeSent });
  const code = codeIn((await smtp.waitForLetter(email)).text);
  const confirmed = await call(headers, 'verify-current', { code });
  expect(confirmed.statusCode).toBe(200);
  expect(confirmed.json()).toEqual({ message: PROFILE_MESSAGES.currentConfirmed });
}

describe('e-mail change', () => {
  it('changes the address after both codes and tells the old address', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    await confirmCurrent(headers, user.email);

    const newEmail = `New.${user.userName}@Example.org`;
    const sent = await call(headers, 'new-email', { email: ` ${newEmail} ` });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ message: PROFILE_MESSAGES.newCodeSent });
    const letter = await smtp.waitForLetter(newEmail);
    expect(await storedEmail(user.id)).toBe(user.email);

    const done = await call(headers, 'confirm', { code: codeIn(letter.text) });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: 'Почта обновлена', email: newEmail });
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect([row?.email, row?.emailKey]).toEqual([newEmail, newEmail.toLowerCase()]);

    const notice = await smtp.waitForLetter(user.email);
    expect(notice.subject).toContain('почта аккаунта изменена');
    expect(notice.text).toContain('Ne***@Example.org');

    // The new address now logs in; the old one does not.
    const login = (usernameOrEmail: string) =>
      app.inject({
        method: 'POST',
        url: '/authms/api/Auth/login',
        payload: { usernameOrEmail, password: 'Secret-Pass1' },
      });
    expect((await login(newEmail)).statusCode).toBe(200);
    expect((await login(user.email)).statusCode).not.toBe(200);
  });

  it('refuses a wrong current code and does not open the next step', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    await call(headers, 'request-code');
    const right = codeIn((await smtp.waitForLetter(user.email)).text);
    const wrong = right === '000000' ? '111111' : '000000';
    const response = await call(headers, 'verify-current', { code: wrong });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: CODE_WRONG, errors: { code: [CODE_WRONG] } });

    const next = await call(headers, 'new-email', { email: 'someone-new@example.org' });
    expect(next.statusCode).toBe(400);
    expect(next.json().message).toBe(PROFILE_MESSAGES.currentNotConfirmed);
  });

  it('refuses codes that are not six digits', async () => {
    const { headers } = await createSignedInUser(testApp);
    for (const code of ['12345', '12345a', '']) {
      const response = await call(headers, 'verify-current', { code });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.code).toEqual([CODE_WRONG]);
    }
  });

  it('answers a taken address like a free one, and refuses it only once its code is proved', async () => {
    const other = await createUser(testApp);
    const { user, headers } = await createSignedInUser(testApp);
    await confirmCurrent(headers, user.email);
    const free = await createSignedInUser(testApp);
    await confirmCurrent(free.headers, free.user.email);

    const taken = await call(headers, 'new-email', { email: other.email.toUpperCase() });
    const fresh = await call(free.headers, 'new-email', {
      email: `free-${user.userName}@example.org`,
    });
    expect(taken.statusCode).toBe(200);
    expect(taken.body).toBe(fresh.body);
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());

    // The mailbox owner gets the code, and a letter that says the address is taken.
    const letter = await smtp.waitForLetter(other.email);
    expect(letter.subject).toContain('попытка указать вашу почту');
    const confirm = await call(headers, 'confirm', { code: codeIn(letter.text) });
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json()).toEqual({
      message: PROFILE_MESSAGES.emailTaken,
      errors: { email: [PROFILE_MESSAGES.emailTaken] },
    });
    expect(await storedEmail(user.id)).toBe(user.email);
    expect(await storedEmail(other.id)).toBe(other.email);
  });

  it('refuses the current address and a malformed one at once', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    await confirmCurrent(headers, user.email);
    const same = await call(headers, 'new-email', { email: user.email });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(PROFILE_MESSAGES.emailSame);
    const invalid = await call(headers, 'new-email', { email: 'not an email' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.email).toEqual([EMAIL_INVALID]);
  });

  it('holds its limits under 100 parallel calls: per account, and per address across accounts', async () => {
    const { user, headers, sessionId } = await createSignedInUser(testApp);
    await openNewEmailStep(user.id, sessionId);
    const burst = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(headers, 'new-email', { email: `burst-${i}-${user.userName}@example.org` }),
      ),
    );
    const statuses = burst.map((answer) => answer.statusCode);
    // The account's limit lets 10 calls through; of those, the resend countdown lets one letter.
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(99);
    const overLimit = burst.filter((answer) => answer.json().message === TOO_MANY_ATTEMPTS);
    expect(overLimit).toHaveLength(100 - NEW_EMAIL_LIMITS.perAccount.limit);
    expect(await newEmailCodesOf([user.id])).toBe(1);

    // 20 accounts, 5 calls each, all at one address: it gets the address's limit of letters.
    const target = `target-${user.userName}@example.org`;
    const accounts = await Promise.all(
      Array.from({ length: 20 }, () => createSignedInUser(testApp)),
    );
    for (const account of accounts) await openNewEmailStep(account.user.id, account.sessionId);
    const spread = await Promise.all(
      accounts.flatMap((account) =>
        Array.from({ length: 5 }, () => call(account.headers, 'new-email', { email: target })),
      ),
    );
    const sent = spread.filter((answer) => answer.statusCode === 200).length;
    expect(sent).toBe(NEW_EMAIL_LIMITS.perAddress.limit);
    expect(spread.every((answer) => [200, 429].includes(answer.statusCode))).toBe(true);
    expect(await newEmailCodesOf(accounts.map((account) => account.user.id))).toBe(sent);
  });

  it('refuses the change when the new address was taken meanwhile', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    await confirmCurrent(headers, user.email);
    const wanted = `wanted-${user.userName}@example.org`;
    await call(headers, 'new-email', { email: wanted });
    const code = codeIn((await smtp.waitForLetter(wanted)).text);
    await createUser(testApp, { email: wanted });

    const response = await call(headers, 'confirm', { code });
    expect(response.statusCode).toBe(409);
    expect(await storedEmail(user.id)).toBe(user.email);
  });

  it('binds the confirmed step to its session and to 15 minutes', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    await confirmCurrent(headers, user.email);
    const otherSession = await signIn(testApp, user.id);
    const fromOther = await call(otherSession.headers, 'new-email', {
      email: 'elsewhere@example.org',
    });
    expect(fromOther.statusCode).toBe(400);
    expect(fromOther.json().message).toBe(PROFILE_MESSAGES.currentNotConfirmed);

    clock.advance(CURRENT_CONFIRMATION_TTL_MS + 1_000);
    const late = await call(headers, 'new-email', { email: 'late@example.org' });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(PROFILE_MESSAGES.currentNotConfirmed);
  });

  it('uses a code once and respects the resend countdown', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    await call(headers, 'request-code');
    const again = await call(headers, 'request-code');
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBeDefined();

    const code = codeIn((await smtp.waitForLetter(user.email)).text);
    expect((await call(headers, 'verify-current', { code })).statusCode).toBe(200);
    expect((await call(headers, 'verify-current', { code })).statusCode).toBe(400);
  });

  it('refuses a confirm code from the current-address step', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    await confirmCurrent(headers, user.email);
    await call(headers, 'new-email', { email: `x-${user.userName}@example.org` });
    await smtp.waitForLetter(`x-${user.userName}@example.org`);
    const response = await call(headers, 'confirm', { code: '000000' });
    // Whatever the real code is, one wrong try leaves the address alone.
    expect(response.statusCode).toBe(400);
    expect(await storedEmail(user.id)).toBe(user.email);
  });

  it('needs a session for every step', async () => {
    for (const step of ['request-code', 'verify-current', 'new-email', 'confirm']) {
      expect((await call({}, step, {})).statusCode).toBe(401);
    }
  });
});
