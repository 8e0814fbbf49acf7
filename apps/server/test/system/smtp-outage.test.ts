/**
 * The SMTP server is down while someone registers. The answer still succeeds (the letter waits in
 * the outbox), the process warns once however many attempts fail, and the letter arrives once
 * SMTP is back, without any help. The outage longer than the code's life, and the hours-long one,
 * are in src/adapters/mail.test.ts, where the clock can be moved.
 */
import { CODE_SENT_TO_EMAIL } from '@portal/contracts/messages';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { REDIS_URL } from '../support/services.js';
import { codeIn, startSmtpServer } from '../support/smtp-server.js';
import { call, randomClientIp } from '../support/system/http.js';
import { API } from '../support/system/portal.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/system/scratch-database.js';
import { freePort, type ServerProcess, startServer } from '../support/system/server-process.js';
import { waitFor } from '../support/wait-for.js';

let scratch: ScratchDatabase;
let server: ServerProcess;
let smtpPort: number;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  smtpPort = await freePort();
  server = await startServer({
    DATABASE_URL: scratch.url,
    REDIS_URL,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    // Retries after 1 s, 2 s, 4 s … instead of 30 s, 1 min …: the same code path, sooner.
    MAIL_FIRST_RETRY_SECONDS: '1',
  });
});

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
});

interface OutboxRow {
  status: string;
  attempts: number;
  last_error: string | null;
  /** Seconds from writing the letter to its expiry. */
  lifetime: number;
}

const OUTAGE_WARNING = 'mail is not being delivered';

it('answers the registration while SMTP is down and delivers the letter when it is back', async () => {
  // Nothing listens on the SMTP port yet: every delivery attempt is refused.
  const email = `outage-${Date.now()}@example.com`;
  const registered = await call(server.url, 'POST', `${API}/register`, {
    body: {
      email,
      password: 'Zx9-Plover-Harp',
      username: `outage_${Date.now() % 1_000_000}`,
      firstName: 'Ольга',
      lastName: 'Смирнова',
    },
    ip: randomClientIp(),
  });
  expect(registered.status).toBe(200);
  expect(registered.body).toEqual({ message: CODE_SENT_TO_EMAIL });

  const outbox = () =>
    scratch.query<OutboxRow>(
      `SELECT status, attempts, last_error,
         extract(epoch FROM expires_at - created_at)::int AS lifetime
       FROM mail_outbox WHERE lower(to_address) = $1`,
      [email],
    );
  // The sender tried, failed, tried again, and keeps the letter for later: it holds a code, so
  // it matters for the code's 10 minutes.
  const [failed] = await waitFor('three failed delivery attempts', async () => {
    const rows = await outbox();
    return rows[0] && rows[0].attempts >= 3 && rows;
  });
  expect(failed).toMatchObject({ status: 'pending', lifetime: 600 });
  expect(failed!.last_error).toMatch(/ECONNREFUSED/);
  // One warning for the outage, not one per attempt.
  const mailWarnings = () =>
    server
      .output()
      .split('\n')
      .filter((line) => line.includes('"module":"mail"') && /"level":(40|50)/.test(line));
  const warnings = mailWarnings();
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(OUTAGE_WARNING);
  expect(server.output()).not.toContain(email);

  // SMTP comes back on the same address.
  const smtp = await startSmtpServer({ port: smtpPort, closeAfterAll: false });
  onTestFinished(() => smtp.close());
  const letter = await smtp.waitForLetter(email, { timeoutMs: 20_000 });
  expect(letter.subject).toMatch(/код подтверждения регистрации/);

  // The letter is the real one: its code confirms the account.
  const confirmed = await call(server.url, 'POST', `${API}/verify-registration`, {
    body: { email, code: codeIn(letter.text) },
    ip: randomClientIp(),
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.token).toEqual(expect.any(String));

  const [sent] = await waitFor('the outbox to record the delivery', async () => {
    const rows = await outbox();
    return rows[0]?.status === 'sent' && rows;
  });
  expect(sent!.attempts).toBeGreaterThanOrEqual(2);
  expect(smtp.letters.filter((item) => item.to.includes(email))).toHaveLength(1);
  expect(mailWarnings()).toEqual(warnings);
});
