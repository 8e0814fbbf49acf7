import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, latestCodeTo } from '../../test/support/fixtures.js';
import { codeIn, startSmtpServer } from '../../test/support/smtp-server.js';
import { createTestApp } from '../../test/support/test-app.js';
import { createTestDatabase } from '../../test/support/test-database.js';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import { ManualClock } from './clock.js';
import { mailOutboxStats, retryDelayMs } from './mail.js';
import { codeLetter, composeLetter } from './mail-letter.js';
import { type MailOutboxRow, mailOutbox } from './mail-schema.js';

const API = '/authms/api/Auth';

const registration = (email: string, username: string) => ({
  method: 'POST' as const,
  url: `${API}/register`,
  payload: { email, password: 'Zx9-Plover-Harp', username, firstName: 'Ольга', lastName: '' },
});

/** A letter without a code, so without an expiry (like the notice of a changed password). */
const notice = (to: string) =>
  composeLetter({ BRAND_NAME: 'GameHost' }, { to, subject: 'тест', paragraphs: ['текст'] });

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** The app with its mail sender's log lines (info and above) kept for the test to read. */
async function appWithLog(config: { SMTP_URL: string }) {
  const lines: string[] = [];
  const testApp = await createTestApp({
    config: { ...config, LOG_LEVEL: 'info' },
    logStream: { write: (line) => void lines.push(line) },
  });
  const mailLines = () =>
    lines.map((line) => JSON.parse(line) as LogLine).filter((line) => line.module === 'mail');
  const log = {
    at: (level: keyof typeof LEVELS) => mailLines().filter((line) => line.level === LEVELS[level]),
    text: () => lines.join(''),
  };
  return { ...testApp, log };
}

describe('mail over SMTP', () => {
  it('delivers the registration code through a real SMTP exchange', async () => {
    const smtp = await startSmtpServer();
    const { app, database } = await createTestApp({
      config: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Портал <no-reply@portal.test>',
        BRAND_NAME: 'ИгроХост',
      },
    });
    expect((await app.inject(registration('Olga@Example.com', 'olga'))).statusCode).toBe(200);

    const letter = await smtp.waitForLetter('olga@example.com');
    expect(letter.from).toBe('no-reply@portal.test');
    expect(letter.subject).toBe('ИгроХост: код подтверждения регистрации');
    expect(letter.text).toContain('Здравствуйте, Ольга!');
    const code = codeIn(letter.text);
    expect(letter.html).toContain(code);

    const confirmed = await app.inject({
      method: 'POST',
      url: `${API}/verify-registration`,
      payload: { email: 'olga@example.com', code },
    });
    expect(confirmed.statusCode).toBe(200);

    // A delivered letter keeps no body: it held a code. The server has the letter before the
    // sender has written down that it went: wait for the sender's pass to end.
    await app.deps.mail.flush();
    const [row] = await database.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: 'sent', textBody: '', htmlBody: '', attempts: 1 });
  });

  it('answers the call while the SMTP server is down, and retries with growing pauses', async () => {
    const smtp = await startSmtpServer();
    const { app, database, clock } = await createTestApp({ config: { SMTP_URL: smtp.url } });
    smtp.failNext(2);

    const response = await app.inject(registration('retry@example.com', 'retry_me'));
    expect(response.statusCode).toBe(200);
    await app.deps.mail.flush();
    const [afterFirst] = await database.db.select().from(mailOutbox);
    expect(afterFirst).toMatchObject({ status: 'pending', attempts: 1 });
    expect(afterFirst!.nextAttemptAt.getTime() - clock.now().getTime()).toBe(30_000);
    expect(afterFirst!.lastError).toMatch(/451|Временная/);

    // Not due yet: nothing is sent.
    await app.deps.mail.flush();
    expect((await database.db.select().from(mailOutbox))[0]?.attempts).toBe(1);

    clock.advance(30_000);
    await app.deps.mail.flush();
    const [afterSecond] = await database.db.select().from(mailOutbox);
    expect(afterSecond).toMatchObject({ status: 'pending', attempts: 2 });
    expect(afterSecond!.nextAttemptAt.getTime() - clock.now().getTime()).toBe(60_000);

    clock.advance(60_000);
    await app.deps.mail.flush();
    const letter = await smtp.waitForLetter('retry@example.com');
    expect(codeIn(letter.text)).toMatch(/^\d{6}$/);
    expect((await database.db.select().from(mailOutbox))[0]).toMatchObject({
      status: 'sent',
      attempts: 3,
    });
  });

  it('keeps a letter through an outage longer than eight attempts and delivers it when SMTP is back; a code letter expires unsent', async () => {
    // A port where nothing listens: every attempt is refused, as when the SMTP server is down.
    const down = await startSmtpServer({ closeAfterAll: false });
    const port = Number(new URL(down.url).port);
    await down.close();
    const { app, database, clock, log } = await appWithLog({ SMTP_URL: down.url });
    const startedAt = clock.now();
    await app.deps.mail.enqueue(notice('notice@example.com'));
    expect((await app.inject(registration('coder@example.com', 'coder'))).statusCode).toBe(200);
    const letterTo = async (address: string) =>
      (await database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, address)))[0]!;
    // The code letter matters as long as its code: 10 minutes.
    expect((await letterTo('coder@example.com')).expiresAt).toEqual(
      new Date(startedAt.getTime() + 10 * 60_000),
    );

    const code = codeIn((await letterTo('coder@example.com')).textBody);

    // Twelve failed attempts over about six hours: the old rule gave up after eight.
    for (let attempt = 1; attempt <= 12; attempt++) {
      await app.deps.mail.flush();
      expect((await letterTo('notice@example.com')).attempts).toBe(attempt);
      clock.advance(retryDelayMs(attempt));
    }
    const waiting = await letterTo('notice@example.com');
    expect(waiting).toMatchObject({ status: 'pending', attempts: 12 });
    expect(waiting.lastError).toMatch(/ECONNREFUSED/);

    // The code letter was tried while its code lived (0 s, 30 s, 1.5 min, 3.5 min, 7.5 min), then
    // marked expired at its expiry instead of being tried at 15.5 min: its code no longer works.
    const expired = await letterTo('coder@example.com');
    expect(expired).toMatchObject({ status: 'expired', attempts: 5, textBody: '', htmlBody: '' });
    expect(expired.sentAt).toBeNull();

    // SMTP comes back on the same address: the notice goes at its next try, the code letter not.
    const smtp = await startSmtpServer({ port });
    await app.deps.mail.flush();
    expect(smtp.letters.map((letter) => letter.to)).toEqual([['notice@example.com']]);
    expect(await letterTo('notice@example.com')).toMatchObject({ status: 'sent', attempts: 13 });
    await app.deps.mail.flush();
    clock.advance(24 * 3_600_000);
    await app.deps.mail.flush();
    expect(smtp.letters).toHaveLength(1);

    // Logged: one warning for the whole outage, one error for the lost letter, one line when
    // mail goes again; the error names neither the address in full nor the code.
    expect(log.at('warn').map((line) => line.msg)).toEqual([
      'mail is not being delivered; letters wait in the outbox and are retried',
    ]);
    const errors = log.at('error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      letterId: expired.id,
      to: 'co***@example.com',
      subject: 'GameHost: код подтверждения регистрации',
      attempts: 5,
      msg: expect.stringMatching(/expired/),
    });
    expect(log.at('info').filter((line) => /delivered again/.test(line.msg))).toHaveLength(1);
    const everything = log.text();
    expect(everything).not.toContain('coder@example.com');
    expect(everything).not.toContain(code);
  });

  it('gives up a letter without an expiry after five days of failed attempts', async () => {
    const down = await startSmtpServer({ closeAfterAll: false });
    await down.close();
    const { app, database, clock, log } = await appWithLog({ SMTP_URL: down.url });
    const startedAt = clock.now().getTime();
    await app.deps.mail.enqueue(notice('ivan.petrov@example.com'));
    await app.deps.mail.flush();

    // Still tried just before the five days are up...
    clock.set(new Date(startedAt + 5 * 24 * 3_600_000 - 1));
    await app.deps.mail.flush();
    let [row] = await database.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(log.at('error')).toEqual([]);

    // ...and given up at the first failure after them.
    clock.set(new Date(startedAt + 5 * 24 * 3_600_000 + 3_600_000));
    await app.deps.mail.flush();
    [row] = await database.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    // The notice holds no code: its text stays for the operator.
    expect(row!.textBody).toContain('текст');
    expect(log.at('error')).toMatchObject([
      {
        letterId: row!.id,
        to: 'iv***@example.com',
        attempts: 3,
        msg: expect.stringMatching(/given up/),
      },
    ]);
    expect(log.at('error')[0]!.lastError).toMatch(/ECONNREFUSED/);

    // Nothing tries it again.
    clock.advance(24 * 3_600_000);
    await app.deps.mail.flush();
    expect((await database.db.select().from(mailOutbox))[0]).toMatchObject({ attempts: 3 });
  });

  it('counts the backlog and the letters lost for the operator', async () => {
    const smtp = await startSmtpServer();
    const { app, database, clock } = await createTestApp({ config: { SMTP_URL: smtp.url } });
    const now = clock.now();
    expect(await mailOutboxStats(database.db, now)).toEqual({
      pending: 0,
      failed: 0,
      expired: 0,
      oldestPendingAgeSeconds: 0,
    });

    const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000);
    const row = (status: MailOutboxRow['status'], minutesAgo: number) => ({
      toAddress: 'x@example.com',
      subject: status,
      textBody: '',
      htmlBody: '',
      status,
      createdAt: at(minutesAgo),
      nextAttemptAt: new Date(now.getTime() + 60_000),
    });
    await database.db
      .insert(mailOutbox)
      .values([
        row('sent', 500),
        row('sent', 1),
        row('pending', 3),
        row('pending', 90),
        row('sending', 120),
        row('failed', 9000),
        row('expired', 20),
        row('expired', 40),
      ]);
    expect(await mailOutboxStats(database.db, now)).toEqual({
      pending: 3,
      failed: 1,
      expired: 2,
      oldestPendingAgeSeconds: 120 * 60,
    });
    // The sender's own letters count the same way: one sent, nothing added to the backlog.
    await app.deps.mail.enqueue(notice('y@example.com'));
    await app.deps.mail.flush();
    expect((await mailOutboxStats(database.db, now)).pending).toBe(3);
  });

  it('delivers an item of another kind by the same claims and retries, and never as a letter', async () => {
    const smtp = await startSmtpServer();
    const { app, database, clock } = await createTestApp({ config: { SMTP_URL: smtp.url } });
    const delivered: unknown[] = [];
    let isDown = true;
    app.deps.mail.deliverKind('test_ping', async (payload) => {
      if (isDown) throw new Error('site down');
      delivered.push(payload);
    });
    await app.deps.mail.enqueueItem('test_ping', { n: 1 });
    // A kind no process delivers waits, tried and retried like a letter.
    await app.deps.mail.enqueueItem('nobody_delivers', { n: 2 });
    await app.deps.mail.flush();
    const rows = async () =>
      database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, ''));
    expect((await rows()).map((row) => [row.kind, row.status, row.attempts]).sort()).toEqual([
      ['nobody_delivers', 'pending', 1],
      ['test_ping', 'pending', 1],
    ]);
    isDown = false;
    clock.advance(retryDelayMs(1) + 1);
    await app.deps.mail.flush();
    expect(delivered).toEqual([{ n: 1 }]);
    const byKind = Object.fromEntries((await rows()).map((row) => [row.kind, row]));
    expect(byKind.test_ping).toMatchObject({ status: 'sent', attempts: 2 });
    expect(byKind.nobody_delivers).toMatchObject({ status: 'pending', attempts: 2 });
    // No letter went out, and the letters' backlog counts none of them.
    expect(smtp.letters).toHaveLength(0);
    expect((await mailOutboxStats(database.db, clock.now())).pending).toBe(0);
  });

  it('stops the sender cleanly when the app closes, finishing the letter in flight', async () => {
    const smtp = await startSmtpServer();
    const database = await createTestDatabase();
    const app = await buildApp({
      config: testConfig({ SMTP_URL: smtp.url }),
      database,
      clock: new ManualClock(),
    });
    await app.ready();
    // Enqueued outside a transaction: the sender starts at once.
    await app.deps.mail.enqueue(
      composeLetter(
        { BRAND_NAME: 'GameHost' },
        { to: 'bye@example.com', subject: 'пока', paragraphs: ['до свидания'] },
      ),
    );
    await app.close();
    const [row] = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'bye@example.com'));
    expect(row?.status).toBe('sent');
    expect(smtp.letters.map((letter) => letter.to)).toEqual([['bye@example.com']]);
    // Nothing runs after close.
    await app.deps.mail.enqueue(
      composeLetter(
        { BRAND_NAME: 'GameHost' },
        { to: 'late@example.com', subject: 'поздно', paragraphs: ['x'] },
      ),
    );
    expect(smtp.letters).toHaveLength(1);
    await database.close();
  });
});

describe('letters with a one-time code', () => {
  it('expire with their code, from every flow that mails one; notices do not expire', async () => {
    const testApp = await createTestApp();
    const { app, clock, database } = testApp;
    const post = (url: string, headers: Record<string, string>, payload?: string | object) =>
      app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload }) });

    expect((await app.inject(registration('newcomer@example.com', 'newcomer'))).statusCode).toBe(
      200,
    );
    const { user, headers } = await createSignedInUser(testApp);
    expect((await post('/portal/auth/password/change-code', headers)).statusCode).toBe(200);
    expect((await post(`${API}/proof/email-code`, headers)).statusCode).toBe(200);
    const reset = await post(
      `${API}/forgot-password`,
      { 'content-type': 'application/json' },
      JSON.stringify(user.email),
    );
    expect(reset.statusCode).toBe(200);
    expect((await post(`${API}/email-change/request-code`, headers)).statusCode).toBe(200);
    const current = await latestCodeTo(testApp, user.email);
    expect(
      (await post(`${API}/email-change/verify-current`, headers, { code: current })).statusCode,
    ).toBe(200);
    expect(
      (await post(`${API}/email-change/new-email`, headers, { email: 'moved@example.org' }))
        .statusCode,
    ).toBe(200);
    // A notice: someone registering an address that already has an account.
    expect((await app.inject(registration(user.email, 'someone_else'))).statusCode).toBe(200);

    const letters = await database.db.select().from(mailOutbox);
    const withCode = letters.filter((letter) => /\b\d{6}\b/.test(letter.textBody));
    expect(withCode.map((letter) => letter.subject).sort()).toEqual(
      [
        'код для смены пароля',
        'код для смены почты',
        'код для сброса пароля',
        'код подтверждения',
        'код подтверждения регистрации',
        'подтверждение новой почты',
      ]
        .map((subject) => `GameHost: ${subject}`)
        .sort(),
    );
    const tenMinutesLater = clock.now().getTime() + 10 * 60_000;
    for (const letter of withCode) expect(letter.expiresAt?.getTime()).toBe(tenMinutesLater);
    const notices = letters.filter((letter) => !withCode.includes(letter));
    expect(notices.map((letter) => letter.subject)).toEqual([
      'GameHost: попытка регистрации с вашей почтой',
    ]);
    expect(notices[0]!.expiresAt).toBeNull();
  });
});

describe('composeLetter', () => {
  it('escapes everything it is given', () => {
    const letter = composeLetter(
      { BRAND_NAME: 'Brand <b>' },
      {
        to: 'a@example.com',
        subject: 'тема',
        greeting: 'Привет, <script>alert(1)</script>!',
        paragraphs: ['"кавычки" & <теги>'],
        code: '123456',
        expiresAt: new Date('2026-11-21T10:10:00Z'),
        action: { label: 'Войти', url: 'https://portal.test/?a=1&b="2"' },
      },
    );
    expect(letter.html).not.toContain('<script>');
    expect(letter.html).toContain('&lt;script&gt;');
    expect(letter.html).toContain('href="https://portal.test/?a=1&amp;b=&quot;2&quot;"');
    expect(letter.text).toContain('Привет, <script>alert(1)</script>!');
    expect(letter.text).toContain('123456');
    expect(letter.subject).toBe('Brand <b>: тема');
    expect(letter.expiresAt).toEqual(new Date('2026-11-21T10:10:00Z'));
  });
});

describe('codeLetter', () => {
  const input = {
    to: 'a@example.com',
    code: '123456',
    expiresAt: new Date('2026-11-21T10:10:00Z'),
  };
  const text = { subject: 'тема', paragraphs: ['Ваш код:'], footer: 'Если это были не вы…' };

  it('greets by the first name, then the code and how long it lasts', () => {
    const letter = codeLetter({ BRAND_NAME: 'Brand' }, { ...input, firstName: ' Ольга ' }, text);
    expect(letter.text).toBe(
      'Здравствуйте, Ольга!\n\nВаш код:\n\n123456\n\nКод действует 10 минут.\n\nЕсли это были не вы…\n\n— Brand',
    );
    expect(letter.expiresAt).toEqual(input.expiresAt);
  });

  it('greets without a name when the account has none', () => {
    const letter = codeLetter({ BRAND_NAME: 'Brand' }, { ...input, firstName: '' }, text);
    expect(letter.text.startsWith('Здравствуйте!\n\n')).toBe(true);
  });
});
