/**
 * Issue 7 "Faults": the SMTP server is down while someone registers. The answer still succeeds
 * (the letter waits in the outbox), and the letter arrives once SMTP is back, without any help.
 */
import { REGISTRATION_CODE_SENT } from '@portal/contracts/messages';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { codeIn, startSmtpServer } from '../smtp-server.js';
import { call, randomClientIp } from './support/http.js';
import { API } from './support/portal.js';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database.js';
import { freePort, type ServerProcess, startServer } from './support/server-process.js';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';

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
}

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
  expect(registered.body).toEqual({ message: REGISTRATION_CODE_SENT });

  const outbox = () =>
    scratch.query<OutboxRow>(
      'SELECT status, attempts, last_error FROM mail_outbox WHERE lower(to_address) = $1',
      [email],
    );
  // The sender tried, failed, and keeps the letter for later.
  const [failed] = await waitFor('a failed delivery attempt', async () => {
    const rows = await outbox();
    return rows[0] && rows[0].attempts >= 1 && rows;
  });
  expect(failed).toMatchObject({ status: 'pending' });
  expect(failed!.last_error).toMatch(/ECONNREFUSED/);

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
});
