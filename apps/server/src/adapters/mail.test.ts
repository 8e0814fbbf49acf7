import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { codeIn, startSmtpServer } from '../../test/smtp-server.js';
import { createTestApp } from '../../test/test-app.js';
import { createTestDatabase } from '../../test/test-database.js';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import { ManualClock } from './clock.js';
import { retryDelayMs } from './mail.js';
import { composeLetter } from './mail-letter.js';
import { mailOutbox } from './mail-schema.js';

const API = '/authms/api/Auth';

const registration = (email: string, username: string) => ({
  method: 'POST' as const,
  url: `${API}/register`,
  payload: { email, password: 'Zx9-Plover-Harp', username, firstName: 'Ольга', lastName: '' },
});

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

  it('gives up after the last retry', async () => {
    const smtp = await startSmtpServer();
    await smtp.close();
    const { app, database, clock } = await createTestApp({ config: { SMTP_URL: smtp.url } });
    await app.deps.mail.enqueue(
      composeLetter(
        { BRAND_NAME: 'GameHost' },
        { to: 'x@example.com', subject: 'тест', paragraphs: ['текст'] },
      ),
    );
    for (let attempt = 1; attempt <= 8; attempt++) {
      await app.deps.mail.flush();
      clock.advance(retryDelayMs(attempt));
    }
    const [row] = await database.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: 'failed', attempts: 8 });
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
        action: { label: 'Войти', url: 'https://portal.test/?a=1&b="2"' },
      },
    );
    expect(letter.html).not.toContain('<script>');
    expect(letter.html).toContain('&lt;script&gt;');
    expect(letter.html).toContain('href="https://portal.test/?a=1&amp;b=&quot;2&quot;"');
    expect(letter.text).toContain('Привет, <script>alert(1)</script>!');
    expect(letter.text).toContain('123456');
    expect(letter.subject).toBe('Brand <b>: тема');
  });
});
