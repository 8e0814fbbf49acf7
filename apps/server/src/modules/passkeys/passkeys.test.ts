import { ACCOUNT_BLOCKED } from '@portal/contracts/messages';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API,
  addressSequence,
  nextTotpStep,
  turnOnAuthenticator,
} from '../../../test/support/auth-helpers.js';
import { createSignedInUser, DEFAULT_PASSWORD, signIn } from '../../../test/support/fixtures.js';
import { securityEventsOf, securityKindsOf } from '../../../test/support/security-log.js';
import { PORTAL, SoftwarePasskey } from '../../../test/support/software-authenticator.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { users } from '../accounts/schema.js';
import { totpCode } from '../two-factor/index.js';
import { listPasskeysForExport } from './index.js';
import { PASSKEY_CHALLENGE_TTL_MS } from './passkey-service.js';
import { passkeyChallenges, passkeys } from './schema.js';

const API = `${AUTH_API}/passkeys`;
let testApp: TestApp;
const nextIp = addressSequence('10.72');

beforeAll(async () => {
  testApp = await createTestApp();
});

type Headers = Record<string, string>;

function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  headers: Headers = {},
  payload?: unknown,
) {
  return testApp.app.inject({
    method,
    url,
    headers,
    remoteAddress: nextIp(),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function registrationOptions(headers: Headers) {
  const response = await call('POST', `${API}/registration/options`, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().options;
}

/** A proven user with one passkey added through the API. */
async function userWithPasskey(name = 'Ноутбук') {
  const signedIn = await createSignedInUser(testApp, {}, { isProven: true });
  const key = new SoftwarePasskey();
  const options = await registrationOptions(signedIn.headers);
  const response = await call('POST', `${API}/registration`, signedIn.headers, {
    name,
    response: key.create(options, PORTAL),
  });
  expect(response.statusCode, response.body).toBe(200);
  return { ...signedIn, key, passkeyId: response.json().passkey.id as string };
}

async function signInOptions() {
  const response = await call('POST', `${API}/sign-in/options`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().options;
}

function passkeySignIn(response: unknown) {
  return call('POST', `${API}/sign-in`, {}, { response });
}

function login(usernameOrEmail: string, extra: Record<string, unknown> = {}) {
  return call(
    'POST',
    `${AUTH_API}/login`,
    {},
    {
      usernameOrEmail,
      password: DEFAULT_PASSWORD,
      ...extra,
    },
  );
}

async function storedPasskey(id: string) {
  const [row] = await testApp.database.db.select().from(passkeys).where(eq(passkeys.id, id));
  return row;
}

describe('adding a passkey', () => {
  it('keeps a verified passkey, lists it and logs passkey_added', async () => {
    const { user, headers, passkeyId, key } = await userWithPasskey('Телефон');
    const list = await call('GET', API, headers);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      { id: passkeyId, name: 'Телефон', createdAt: expect.any(String), lastUsedAt: null },
    ]);
    const row = await storedPasskey(passkeyId);
    expect(row).toMatchObject({ credentialId: key.id, counter: 0, transports: ['internal'] });
    expect(await securityKindsOf(testApp, user.id)).toEqual(['passkey_added']);
  });

  it('answers options for a discoverable passkey that verifies its user', async () => {
    const { user, headers } = await createSignedInUser(testApp, {}, { isProven: true });
    const options = await registrationOptions(headers);
    expect(options.rp).toEqual({ name: 'GameHost', id: 'portal.test' });
    expect(options.user.name).toBe(user.email);
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(options.attestation).toBe('none');
  });

  it('needs a fresh proof, for the options and for the answer', async () => {
    const { headers } = await createSignedInUser(testApp);
    const options = await call('POST', `${API}/registration/options`, headers);
    expect(options.statusCode).toBe(403);
    expect(options.json().reason).toBe('proof_required');
    const answer = await call('POST', `${API}/registration`, headers, {
      name: 'Ключ',
      response: new SoftwarePasskey().create({ challenge: 'AAAA', user: { id: 'AAAA' } }, PORTAL),
    });
    expect(answer.statusCode).toBe(403);
  });

  it.each([
    ['another origin', { origin: 'https://evil.test', rpId: 'portal.test' }],
    ['another relying party', { origin: 'http://portal.test', rpId: 'evil.test' }],
  ])('refuses an answer made for %s, and keeps nothing', async (_case, where) => {
    const { user, headers } = await createSignedInUser(testApp, {}, { isProven: true });
    const options = await registrationOptions(headers);
    const response = await call('POST', `${API}/registration`, headers, {
      name: 'Ключ',
      response: new SoftwarePasskey().create(options, where),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Не удалось добавить ключ доступа. Попробуйте ещё раз');
    expect(await listPasskeysForExport(testApp.database.db, user.id)).toEqual([]);
    expect(await securityKindsOf(testApp, user.id)).toEqual([]);
  });

  it('spends the challenge: the same answer again, or another user, is refused', async () => {
    const { headers } = await createSignedInUser(testApp, {}, { isProven: true });
    const options = await registrationOptions(headers);
    const first = new SoftwarePasskey().create(options, PORTAL);
    expect(
      (await call('POST', `${API}/registration`, headers, { name: 'A', response: first }))
        .statusCode,
    ).toBe(200);
    const again = new SoftwarePasskey().create(options, PORTAL);
    expect(
      (await call('POST', `${API}/registration`, headers, { name: 'B', response: again }))
        .statusCode,
    ).toBe(400);

    const owner = await createSignedInUser(testApp, {}, { isProven: true });
    const other = await createSignedInUser(testApp, {}, { isProven: true });
    const ownersOptions = await registrationOptions(owner.headers);
    const stolen = new SoftwarePasskey().create(ownersOptions, PORTAL);
    expect(
      (await call('POST', `${API}/registration`, other.headers, { name: 'C', response: stolen }))
        .statusCode,
    ).toBe(400);
  });

  it('refuses an expired challenge', async () => {
    const { headers } = await createSignedInUser(testApp, {}, { isProven: true });
    const options = await registrationOptions(headers);
    testApp.clock.advance(PASSKEY_CHALLENGE_TTL_MS + 1000);
    // The proof is older now too; prove again so only the challenge's age matters.
    const proven = await call('POST', `${AUTH_API}/proof`, headers, { password: DEFAULT_PASSWORD });
    expect(proven.statusCode).toBe(200);
    const response = await call('POST', `${API}/registration`, headers, {
      name: 'Ключ',
      response: new SoftwarePasskey().create(options, PORTAL),
    });
    expect(response.statusCode).toBe(400);
  });

  it('refuses a credential some account already has (409)', async () => {
    const { headers, key } = await userWithPasskey();
    const options = await registrationOptions(headers);
    const response = await call('POST', `${API}/registration`, headers, {
      name: 'Снова',
      response: key.create(options, PORTAL),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Этот ключ доступа уже добавлен');
  });

  it('validates the name', async () => {
    const { headers } = await createSignedInUser(testApp, {}, { isProven: true });
    const options = await registrationOptions(headers);
    const response = await call('POST', `${API}/registration`, headers, {
      name: '   ',
      response: new SoftwarePasskey().create(options, PORTAL),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.name).toEqual(['Введите название ключа']);
  });
});

describe('signing in with a passkey', () => {
  it('creates a session like a password sign-in, logged as a passkey sign-in', async () => {
    const { user, key, passkeyId } = await userWithPasskey();
    const response = await passkeySignIn(key.get(await signInOptions(), PORTAL));
    expect(response.statusCode, response.body).toBe(200);
    const { token, userId } = response.json();
    expect(userId).toBe(user.id);
    const me = await call('POST', `${AUTH_API}/user`, { authorization: `Bearer ${token}` });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);
    const [latest] = await securityEventsOf(testApp, user.id);
    expect(latest).toMatchObject({ kind: 'sign_in', details: { method: 'passkey' } });
    const row = await storedPasskey(passkeyId);
    expect(row?.counter).toBe(1);
    expect(row?.lastUsedAt).toEqual(testApp.clock.now());
  });

  it('offers a discoverable sign-in: no credentials listed, user verification required', async () => {
    const options = await signInOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.rpId).toBe('portal.test');
    expect(options.userVerification).toBe('required');
  });

  it.each([
    ['another origin', { origin: 'https://evil.test', rpId: 'portal.test' }],
    ['another relying party', { origin: 'http://portal.test', rpId: 'evil.test' }],
  ])('refuses an assertion made for %s', async (_case, where) => {
    const { key } = await userWithPasskey();
    const response = await passkeySignIn(key.get(await signInOptions(), where));
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(
      'Не удалось войти с ключом доступа. Попробуйте ещё раз или войдите по паролю',
    );
  });

  it("refuses a blocked account (support's block) with the support contact", async () => {
    const { user, key } = await userWithPasskey();
    await testApp.database.db
      .update(users)
      .set({ blockedAt: new Date(), blockedReason: 'test' })
      .where(eq(users.id, user.id));
    const response = await passkeySignIn(key.get(await signInOptions(), PORTAL));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: `${ACCOUNT_BLOCKED}: ${testApp.config.SUPPORT_URL}`,
      reason: 'account_blocked',
    });
  });

  it('refuses a reused challenge, an expired one and an unknown passkey', async () => {
    const { key } = await userWithPasskey();
    const options = await signInOptions();
    expect((await passkeySignIn(key.get(options, PORTAL))).statusCode).toBe(200);
    expect((await passkeySignIn(key.get(options, PORTAL))).statusCode).toBe(401);

    const late = await signInOptions();
    testApp.clock.advance(PASSKEY_CHALLENGE_TTL_MS + 1000);
    expect((await passkeySignIn(key.get(late, PORTAL))).statusCode).toBe(401);

    const stranger = new SoftwarePasskey();
    expect((await passkeySignIn(stranger.get(await signInOptions(), PORTAL))).statusCode).toBe(401);
  });

  it('refuses a counter that went back (a cloned key), but accepts 0 after 0', async () => {
    const { key } = await userWithPasskey();
    expect((await passkeySignIn(key.get(await signInOptions(), PORTAL, 5))).statusCode).toBe(200);
    // A copy of the key that has signed fewer times.
    key.counter = 2;
    expect((await passkeySignIn(key.get(await signInOptions(), PORTAL))).statusCode).toBe(401);

    const counterless = await userWithPasskey();
    for (let round = 0; round < 2; round++) {
      const response = await passkeySignIn(counterless.key.get(await signInOptions(), PORTAL, 0));
      expect(response.statusCode).toBe(200);
    }
  });

  it('refuses a user handle that is not the passkey owner’s', async () => {
    const { key } = await userWithPasskey();
    const other = await userWithPasskey();
    key.userHandle = other.key.userHandle;
    expect((await passkeySignIn(key.get(await signInOptions(), PORTAL))).statusCode).toBe(401);
  });

  it('refuses an assertion without user verification', async () => {
    const { key } = await userWithPasskey();
    key.isUserVerified = false;
    expect((await passkeySignIn(key.get(await signInOptions(), PORTAL))).statusCode).toBe(401);
  });

  it('100 parallel sign-ins with one assertion make exactly one session', async () => {
    const { user, key } = await userWithPasskey();
    // Counter 0 (an authenticator without one): only the spent challenge stops the copies.
    const assertion = key.get(await signInOptions(), PORTAL, 0);
    const answers = await Promise.all(Array.from({ length: 100 }, () => passkeySignIn(assertion)));
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 401)).toHaveLength(99);
    const signIns = (await securityEventsOf(testApp, user.id)).filter(
      (event) => event.kind === 'sign_in',
    );
    expect(signIns).toHaveLength(1);
    const live = await testApp.app.deps.sessions.listActive(user.id);
    // The fixture's own session and the one the passkey made.
    expect(live).toHaveLength(2);
  });

  it('hands out at most 30 sign-in challenges a minute to one address, of 100 parallel asks', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        testApp.app.inject({
          method: 'POST',
          url: `${API}/sign-in/options`,
          remoteAddress: '10.72.250.1',
        }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(30);
    expect(codes.filter((code) => code === 429)).toHaveLength(70);
  });

  it('leaves no challenge behind after use', async () => {
    const { key } = await userWithPasskey();
    const options = await signInOptions();
    await passkeySignIn(key.get(options, PORTAL));
    const left = await testApp.database.db
      .select()
      .from(passkeyChallenges)
      .where(eq(passkeyChallenges.challenge, options.challenge));
    expect(left).toEqual([]);
  });
});

describe('the passkey as the second step of a password sign-in', () => {
  it('is asked for when the account has passkeys and no authenticator', async () => {
    const { user, key } = await userWithPasskey();
    const first = await login(user.userName);
    expect(first.statusCode).toBe(200);
    const answer = first.json();
    expect(answer.requiresTwoFactor).toBe(true);
    expect(answer.passkeyOptions.allowCredentials).toEqual([
      { id: key.id, type: 'public-key', transports: ['internal'] },
    ]);
    const second = await login(user.userName, { passkey: key.get(answer.passkeyOptions, PORTAL) });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().userId).toBe(user.id);
    const [latest] = await securityEventsOf(testApp, user.id);
    expect(latest).toMatchObject({
      kind: 'sign_in',
      details: { method: 'password', secondFactor: 'passkey' },
    });
  });

  it('refuses another user’s passkey, and an assertion of the discoverable sign-in', async () => {
    const { user } = await userWithPasskey();
    const other = await userWithPasskey();
    const { passkeyOptions } = (await login(user.userName)).json();
    const foreign = await login(user.userName, {
      passkey: other.key.get(passkeyOptions, PORTAL),
    });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json().message).toBe('Ключ доступа не подошёл');
    // A sign-in challenge is not a second-step challenge.
    const own = await userWithPasskey();
    const wrongPurpose = await login(own.user.userName, {
      passkey: own.key.get(await signInOptions(), PORTAL),
    });
    expect(wrongPurpose.statusCode).toBe(401);
    expect(await securityKindsOf(testApp, user.id)).toContain('sign_in_failed');
  });

  it('leaves the authenticator step as it is when the authenticator is on', async () => {
    const { user, headers } = await userWithPasskey();
    const secret = await turnOnAuthenticator(testApp, headers);
    nextTotpStep(testApp.clock);
    const first = await login(user.userName);
    expect(first.json()).toEqual({ requiresTwoFactor: true });
    const second = await login(user.userName, {
      twoFactorCode: totpCode(secret, testApp.clock.now()),
    });
    expect(second.statusCode).toBe(200);
  });
});

describe('renaming and removing', () => {
  it('renames the own passkey; another user’s or an unknown one is 404', async () => {
    const { headers, passkeyId } = await userWithPasskey();
    const renamed = await call('PATCH', `${API}/${passkeyId}`, headers, { name: '  Рабочий  ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Рабочий');
    const other = await createSignedInUser(testApp);
    expect(
      (await call('PATCH', `${API}/${passkeyId}`, other.headers, { name: 'Мой' })).statusCode,
    ).toBe(404);
    expect((await call('PATCH', `${API}/nonsense`, headers, { name: 'Мой' })).statusCode).toBe(404);
    expect((await storedPasskey(passkeyId))?.name).toBe('Рабочий');
  });

  it('removes with a fresh proof and logs passkey_removed; then the passkey signs in no more', async () => {
    const { user, key, passkeyId } = await userWithPasskey();
    const unproven = await signIn(testApp, user.id);
    const refused = await call('DELETE', `${API}/${passkeyId}`, unproven.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().reason).toBe('proof_required');

    const stranger = await createSignedInUser(testApp, {}, { isProven: true });
    expect((await call('DELETE', `${API}/${passkeyId}`, stranger.headers)).statusCode).toBe(404);

    const proven = await signIn(testApp, user.id, { isProven: true });
    const removed = await call('DELETE', `${API}/${passkeyId}`, proven.headers);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe('Ключ доступа удалён');
    expect(await storedPasskey(passkeyId)).toBeUndefined();
    expect((await securityKindsOf(testApp, user.id))[0]).toBe('passkey_removed');
    expect((await passkeySignIn(key.get(await signInOptions(), PORTAL))).statusCode).toBe(401);
    // Without passkeys the password alone signs in again.
    expect((await login(user.userName)).json().token).toEqual(expect.any(String));
  });

  it('exports names and dates, never a key', async () => {
    const { user } = await userWithPasskey('Планшет');
    const exported = await listPasskeysForExport(testApp.database.db, user.id);
    expect(exported).toEqual([
      { name: 'Планшет', createdAt: expect.any(String), lastUsedAt: null },
    ]);
  });
});
