import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  FIELD_EMPTY,
  FIELD_ONLY_WHITESPACE,
  NAME_FORBIDDEN_CHARACTERS,
  USERNAME_HAS_CYRILLIC,
  USERNAME_NOT_LATIN,
  USERNAME_TOO_LONG,
  USERNAME_TOO_SHORT,
} from '@portal/contracts/messages';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, createUser, signIn } from '../../../test/support/fixtures.js';
import { pngImage } from '../../../test/support/images.js';
import { multipartBody } from '../../../test/support/multipart-body.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { users } from '../accounts/schema.js';
import { PROFILE_MESSAGES } from './messages.js';

const testApp = await createTestApp({
  config: { UPLOAD_DIR: mkdtempSync(path.join(tmpdir(), 'portal-profile-')) },
});
const { app, database } = testApp;

const valid = { userName: 'new_nick', firstName: 'Пётр', middleName: 'Ильич', lastName: 'Сидоров' };

const updateProfile = (headers: Record<string, string>, payload: object) =>
  app.inject({ method: 'PUT', url: '/authms/api/Auth/update-profile', headers, payload });

const updateAvatar = (headers: Record<string, string>, avatarUrl: string) =>
  app.inject({
    method: 'PUT',
    url: '/authms/api/Auth/update-avatar',
    headers,
    payload: { avatarUrl },
  });

const stored = async (id: string) =>
  (await database.db.select().from(users).where(eq(users.id, id)))[0]!;

async function uploadAvatar(headers: Record<string, string>) {
  const body = multipartBody([
    { filename: 'me.png', contentType: 'image/png', body: await pngImage(100, 100) },
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/upload',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: string }>().data;
}

describe('update-profile', () => {
  it('saves trimmed values and answers a message; the user call shows them', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const response = await updateProfile(headers, {
      userName: '  New_Nick ',
      firstName: ' Пётр ',
      middleName: 'Ильич  ',
      lastName: '  Сидоров',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: PROFILE_MESSAGES.profileUpdated,
      userName: 'New_Nick',
      firstName: 'Пётр',
      middleName: 'Ильич',
      lastName: 'Сидоров',
    });
    const row = await stored(user.id);
    expect([row.userName, row.userNameKey, row.firstName, row.middleName, row.lastName]).toEqual([
      'New_Nick',
      'new_nick',
      'Пётр',
      'Ильич',
      'Сидоров',
    ]);
    const me = await app.inject({ method: 'POST', url: '/authms/api/Auth/user', headers });
    expect(me.json()).toMatchObject({ userName: 'New_Nick', middleName: 'Ильич' });
  });

  it('strips the spaces of a nickname, as registration does, and answers what it stored', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const response = await updateProfile(headers, { ...valid, userName: 'ab cd  ef' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ userName: 'abcdef' });
    expect((await stored(user.id)).userName).toBe('abcdef');
  });

  it('answers 400 with every profile field rule per field and changes nothing', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const cases: [object, Record<string, string[]>][] = [
      [{ ...valid, userName: 'ab' }, { userName: [USERNAME_TOO_SHORT] }],
      [{ ...valid, userName: 'a'.repeat(17) }, { userName: [USERNAME_TOO_LONG] }],
      [{ ...valid, userName: '     ' }, { userName: [FIELD_ONLY_WHITESPACE] }],
      [{ ...valid, firstName: '' }, { firstName: [FIELD_EMPTY] }],
      [{ ...valid, middleName: '   ' }, { middleName: [FIELD_ONLY_WHITESPACE] }],
      [
        { ...valid, lastName: '', firstName: '  ' },
        { firstName: [FIELD_ONLY_WHITESPACE], lastName: [FIELD_EMPTY] },
      ],
    ];
    for (const [payload, errors] of cases) {
      const response = await updateProfile(headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors).toEqual(errors);
    }
    const missing = await updateProfile(headers, { userName: 'valid_name' });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors).sort()).toEqual([
      'firstName',
      'lastName',
      'middleName',
    ]);
    const row = await stored(user.id);
    expect([row.userName, row.firstName]).toEqual([user.userName, user.firstName]);
  });

  it('keeps the registration rules for the username (no Cyrillic) and refuses a taken one', async () => {
    const other = await createUser(testApp, { userName: 'TakenName' });
    const { headers } = await createSignedInUser(testApp);
    const cyrillic = await updateProfile(headers, { ...valid, userName: 'никнейм' });
    expect(cyrillic.statusCode).toBe(400);
    expect(cyrillic.json().errors).toEqual({ userName: [USERNAME_HAS_CYRILLIC] });

    const taken = await updateProfile(headers, { ...valid, userName: 'takenname' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      message: PROFILE_MESSAGES.userNameTaken,
      errors: { userName: [PROFILE_MESSAGES.userNameTaken] },
    });
    expect((await stored(other.id)).userName).toBe('TakenName');
  });

  it('refuses look-alike letters in a new username and control characters in the names', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const greek = await updateProfile(headers, { ...valid, userName: 'admin\u03bf' });
    expect(greek.statusCode).toBe(400);
    expect(greek.json().errors).toEqual({ userName: [USERNAME_NOT_LATIN] });
    const bidi = await updateProfile(headers, {
      ...valid,
      firstName: 'Пётр\u202e',
      middleName: 'Ил\u200bьич',
      lastName: 'Сидоров\u0000',
    });
    expect(bidi.statusCode).toBe(400);
    expect(bidi.json().errors).toEqual({
      firstName: [NAME_FORBIDDEN_CHARACTERS],
      middleName: [NAME_FORBIDDEN_CHARACTERS],
      lastName: [NAME_FORBIDDEN_CHARACTERS],
    });
    expect((await stored(user.id)).userName).toBe(user.userName);
  });

  it('refuses names that render as nothing: combining marks, fillers, variation selectors', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const blank = await updateProfile(headers, {
      ...valid,
      userName: user.userName,
      firstName: '\u0301\u0301\u0301',
      middleName: '\u3164\ufe0f',
      lastName: '\u115f\u2800',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({
      message: expect.any(String),
      errors: {
        firstName: [NAME_FORBIDDEN_CHARACTERS],
        middleName: [NAME_FORBIDDEN_CHARACTERS],
        lastName: [NAME_FORBIDDEN_CHARACTERS],
      },
    });
    expect((await stored(user.id)).firstName).toBe(user.firstName);
  });

  it('lets an account keep a username from before the character rule until it changes it', async () => {
    const { user, headers } = await createSignedInUser(testApp, { userName: 'Ωmega' });
    const kept = await updateProfile(headers, { ...valid, userName: 'Ωmega' });
    expect(kept.statusCode).toBe(200);
    expect(await stored(user.id)).toMatchObject({ userName: 'Ωmega', firstName: 'Пётр' });
    const changed = await updateProfile(headers, { ...valid, userName: 'Ωmega2' });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().errors).toEqual({ userName: [USERNAME_NOT_LATIN] });
  });

  it('lets a user keep their own name in another letter case', async () => {
    const { user, headers } = await createSignedInUser(testApp, { userName: 'keep_me' });
    const response = await updateProfile(headers, { ...valid, userName: 'Keep_Me' });
    expect(response.statusCode).toBe(200);
    expect((await stored(user.id)).userName).toBe('Keep_Me');
  });

  it('answers 401 without a live session, also once the user is gone', async () => {
    const anonymous = await updateProfile({}, valid);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe('Недействительный токен');

    const { user, headers } = await createSignedInUser(testApp);
    // The session row goes with the user (ON DELETE CASCADE), so a gone user is a 401 too…
    await database.db.delete(users).where(eq(users.id, user.id));
    expect((await updateProfile(headers, valid)).statusCode).toBe(401);
  });
});

describe('update-avatar', () => {
  it('sets an address this storage issued to this user; the user call shows it', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const address = await uploadAvatar(headers);
    const response = await updateAvatar(headers, address);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: PROFILE_MESSAGES.avatarUpdated });
    expect((await stored(user.id)).avatarUrl).toBe(address);
  });

  it('refuses any other address: outside, made up, or another user’s upload', async () => {
    const owner = await createSignedInUser(testApp);
    const theirs = await uploadAvatar(owner.headers);
    const { user, headers } = await createSignedInUser(testApp);
    const base = `${testApp.config.PUBLIC_URL}/uploads/`;
    for (const address of [
      'https://evil.example/a.png',
      'javascript:alert(1)',
      `${base}${'0'.repeat(32)}.png`,
      `${base}../secret.key`,
      theirs,
    ]) {
      const response = await updateAvatar(headers, address);
      expect(response.statusCode, address).toBe(400);
      expect(response.json().errors).toEqual({ avatarUrl: [PROFILE_MESSAGES.avatarNotOurs] });
    }
    expect((await stored(user.id)).avatarUrl).toBeNull();
  });

  it('needs a session', async () => {
    const response = await updateAvatar({}, 'x');
    expect(response.statusCode).toBe(401);
  });
});

describe('sessions of another user', () => {
  it('change only their own profile', async () => {
    const first = await createUser(testApp);
    const second = await createUser(testApp);
    const { headers } = await signIn(testApp, second.id);
    expect((await updateProfile(headers, { ...valid, userName: 'second_one' })).statusCode).toBe(
      200,
    );
    expect((await stored(first.id)).userName).toBe(first.userName);
    expect((await stored(second.id)).userName).toBe('second_one');
  });
});
