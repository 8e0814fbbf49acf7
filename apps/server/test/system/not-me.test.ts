/**
 * «Это был не я» from the alert letter ends the stranger's session everywhere: a request the
 * stranger sends to the other process right after the answer is refused, although that process
 * had the session cached a moment before.
 */
import { expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../support/fixtures.js';
import { call, randomClientIp } from '../support/system/http.js';
import { API, createPortalUser } from '../support/system/portal.js';
import { setupTwoProcesses } from '../support/system/two-processes.js';

const portal = setupTwoProcesses();

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

async function login(base: string, userName: string, userAgent: string, ip: string) {
  const answer = await call(base, 'POST', `${API}/login`, {
    body: { usernameOrEmail: userName, password: DEFAULT_PASSWORD },
    headers: { 'user-agent': userAgent },
    ip,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.token as string;
}

it("refuses the stranger's session on B right after «Это был не я» answered by A", async () => {
  const user = await createPortalUser(portal.scratch);
  await login(portal.a.url, user.userName, FIREFOX, randomClientIp());
  const stranger = await login(portal.b.url, user.userName, CHROME, randomClientIp());
  // B has the stranger's session cached now.
  expect((await call(portal.b.url, 'POST', `${API}/user`, { token: stranger })).status).toBe(200);

  const [letter] = await portal.scratch.query<{ text_body: string }>(
    `SELECT text_body FROM mail_outbox WHERE to_address = $1 AND subject LIKE '%нового устройства%'`,
    [user.email],
  );
  const url = /Это был не я: (\S+)/.exec(letter?.text_body ?? '')?.[1];
  expect(url).toBeDefined();
  const token = new URL(url!).searchParams.get('token');

  const answer = await call(portal.a.url, 'POST', `${API}/not-me`, {
    body: { token },
    ip: randomClientIp(),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect((await call(portal.b.url, 'POST', `${API}/user`, { token: stranger })).status).toBe(401);
});
