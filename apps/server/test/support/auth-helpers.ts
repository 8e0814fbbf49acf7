// Calls and checks the auth-area tests share (password change and reset, two-factor, login).
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { ManualClock } from '../../src/adapters/clock.js';
import { users } from '../../src/modules/accounts/schema.js';
import { totpCode } from '../../src/modules/two-factor/totp.js';
import { DEFAULT_PASSWORD } from './fixtures.js';
import { PORTAL, SoftwarePasskey } from './software-authenticator.js';
import type { TestApp } from './test-app.js';

export const AUTH_API = '/authms/api/Auth';

/** A TOTP time step (30 s, `TOTP_PERIOD_SECONDS`). */
export const TOTP_STEP_MS = 30_000;

/**
 * Hands out a fresh source address per call (`<prefix>.x.y`), so the per-address limits one test
 * runs into do not touch another.
 */
export function addressSequence(prefix: string) {
  let count = 0;
  return () => {
    count += 1;
    return `${prefix}.${Math.floor(count / 250)}.${count % 250}`;
  };
}

/** The status of a call any signed-in device makes: 200 while the session lives, else 401. */
export async function sessionStatus(
  { app }: Pick<TestApp, 'app'>,
  headers: Record<string, string>,
) {
  return (await app.inject({ method: 'POST', url: `${AUTH_API}/user`, headers })).statusCode;
}

export async function passwordHashOf({ database }: Pick<TestApp, 'database'>, userId: string) {
  const [row] = await database.db.select().from(users).where(eq(users.id, userId));
  return row?.passwordHash;
}

/** A six-digit code that is surely not `code`. */
export function otherCode(code: string) {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

/** Moves to the start of the next time step, so the next TOTP code is an unused one. */
export function nextTotpStep(clock: ManualClock) {
  const now = clock.now().getTime();
  clock.set(new Date(now - (now % TOTP_STEP_MS) + TOTP_STEP_MS + 1_000));
}

/** Proves the session's owner by the password (`POST …/Auth/proof`), as the web app asks. */
export async function proveSession(
  { app }: Pick<TestApp, 'app'>,
  headers: Record<string, string>,
  password = DEFAULT_PASSWORD,
) {
  const proof = await app.inject({
    method: 'POST',
    url: `${AUTH_API}/proof`,
    headers,
    payload: { password },
  });
  expect(proof.statusCode).toBe(200);
}

/**
 * Switches the authenticator on through the API (a proof by the password, enable, then verify
 * now's code); answers the secret.
 */
export async function turnOnAuthenticator(
  { app, clock }: Pick<TestApp, 'app' | 'clock'>,
  headers: Record<string, string>,
  password = DEFAULT_PASSWORD,
) {
  await proveSession({ app }, headers, password);
  const enable = await app.inject({ method: 'POST', url: `${AUTH_API}/2fa/enable`, headers });
  const { secret } = enable.json<{ secret: string }>();
  const verified = await app.inject({
    method: 'POST',
    url: `${AUTH_API}/2fa/verify`,
    headers,
    payload: { code: totpCode(secret, clock.now()) },
  });
  expect(verified.statusCode).toBe(200);
  return secret;
}

/**
 * Adds a passkey through the API (a proof by the password, the options, then the key's answer on
 * the portal's page); answers the key.
 */
export async function addPasskey(
  { app }: Pick<TestApp, 'app'>,
  headers: Record<string, string>,
  password = DEFAULT_PASSWORD,
) {
  await proveSession({ app }, headers, password);
  const key = new SoftwarePasskey();
  const options = await app.inject({
    method: 'POST',
    url: `${AUTH_API}/passkeys/registration/options`,
    headers,
  });
  const added = await app.inject({
    method: 'POST',
    url: `${AUTH_API}/passkeys/registration`,
    headers,
    payload: { name: 'Ключ', response: key.create(options.json().options, PORTAL) },
  });
  expect(added.statusCode, added.body).toBe(200);
  return key;
}
