/**
 * A Yandex ID sign-in whose steps land on different processes (a load balancer may send each
 * request anywhere): the state spent on one is spent for the other, the one-time code is taken
 * once between them, and the session it gives is honoured by both.
 */
import { YANDEX_SIGN_IN_CODE_REFUSED } from '@portal/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YANDEX_MESSAGES } from '../../src/modules/yandex/messages.js';
import { type FakeYandex, startFakeYandex } from '../support/fake-yandex.js';
import { REDIS_URL } from '../support/services.js';
import { call, randomClientIp } from '../support/system/http.js';
import { API } from '../support/system/portal.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/system/scratch-database.js';
import { type ServerProcess, startServer } from '../support/system/server-process.js';

let scratch: ScratchDatabase;
let yandex: FakeYandex;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  [scratch, yandex] = await Promise.all([createScratchDatabase(), startFakeYandex()]);
  const env = {
    DATABASE_URL: scratch.url,
    REDIS_URL,
    ...yandex.config,
  };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), yandex?.close()]);
  await scratch?.drop();
});

/** getUrl on `server`, then the stand-in's authorize page: the callback query and the cookie. */
async function beginSignIn(server: ServerProcess, ip: string) {
  const id = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  yandex.signInAs({ id, login: `ya${id}`, default_email: `ya${id}@yandex.ru` });
  const answer = await call(server.url, 'GET', '/auth/yandex/getUrl', { ip });
  expect(answer.status).toBe(200);
  const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
  const authorize = await fetch(answer.body.data.url, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location')!);
  return { yandexId: id, cookie, query: new URLSearchParams(back.hash.slice(1)).toString() };
}

/** The callback as the browser follows it from /oauth: where it sends the browser. */
async function callback(server: ServerProcess, query: string, cookie: string, ip: string) {
  const response = await fetch(`${server.url}/auth/yandex/callback?${query}`, {
    headers: { cookie, 'x-forwarded-for': ip },
    redirect: 'manual',
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

const exchange = (server: ServerProcess, code: string, cookie: string) =>
  call(server.url, 'POST', '/auth/yandex/exchange', {
    body: { code },
    headers: { cookie },
    ip: randomClientIp(),
  });

describe('a Yandex sign-in across two processes', () => {
  it('begins on A, returns to B, is exchanged on A; the state and the code count once on both', async () => {
    const ip = randomClientIp();
    const { cookie, query } = await beginSignIn(a, ip);
    const code = (await callback(b, query, cookie, ip)).searchParams.get('yandexCode');
    expect(code).toBeTruthy();
    // The same answer again, on the other process: the state is spent in the shared database.
    const replay = await callback(a, query, cookie, ip);
    expect(replay.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.stale);
    expect(replay.searchParams.get('yandexCode')).toBeNull();

    const signedIn = await exchange(a, code!, cookie);
    expect(signedIn.status).toBe(200);
    const { token, userId } = signedIn.body as { token: string; userId: string };
    const me = await call(b.url, 'POST', `${API}/user`, { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(userId);

    const again = await exchange(b, code!, cookie);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(YANDEX_SIGN_IN_CODE_REFUSED);
  });

  it('gives one session when the code is exchanged on both processes at once', async () => {
    const ip = randomClientIp();
    const { yandexId, cookie, query } = await beginSignIn(b, ip);
    const code = (await callback(a, query, cookie, ip)).searchParams.get('yandexCode')!;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => exchange(index % 2 ? a : b, code, cookie)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(99);
    const sessions = await scratch.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions JOIN users ON users.id = sessions.user_id
       WHERE users.yandex_id = $1`,
      [yandexId],
    );
    expect(sessions[0]!.n).toBe(1);
  });
});
