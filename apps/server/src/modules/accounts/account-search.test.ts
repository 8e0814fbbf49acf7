// Support's account search on the database the run uses: PGlite, or PostgreSQL with
// TEST_DATABASE_URL. The app is built so that the payments plugin has handed over its lookup.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { payments } from '../payments/schema.js';
import { type AccountSearchHit, phoneForms, SEARCHED_TEXT } from './account-search.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const ALL = { limit: 100, offset: 0 };
const MINUTE = 60_000;

/** A word no other test's account holds, in letters only (it must fit a username and a name). */
function tag() {
  return `q${randomBytes(5).toString('hex')}`;
}

const search = (query: string, page = ALL) =>
  t.app.deps.accountSearch.search(t.database.db, query, page);
const ids = (hits: AccountSearchHit[]) => hits.map((hit) => hit.user.id);

describe('exact matches', () => {
  it('finds an account by each of its identifiers, saying which matched', async () => {
    const word = tag();
    const user = await createUser(t, {
      email: `${word}@Example.com`,
      emailKey: `${word}@example.com`,
      userName: `U${word}`,
      userNameKey: `u${word}`,
      phone: '+79001234567',
      telegramId: 700_000_000 + Math.floor(Math.random() * 99_999_999),
      yandexId: `ya-${word}`,
    });
    const cases: [string, AccountSearchHit['matchedBy']][] = [
      [user.id, 'id'],
      [user.id.toUpperCase(), 'id'],
      [`ya-${word}`, 'id'],
      [`  ${word.toUpperCase()}@EXAMPLE.COM `, 'email'],
      [`u${word.toUpperCase()}`, 'username'],
      ['+79001234567', 'phone'],
      ['+7 (900) 123-45-67', 'phone'],
      ['8 900 123 45 67', 'phone'],
      ['9001234567', 'phone'],
      [String(user.telegramId), 'telegram'],
    ];
    for (const [query, matchedBy] of cases) {
      const hits = await search(query);
      expect(hits[0], query).toMatchObject({ user: { id: user.id }, matchedBy });
    }
  });

  it('finds the payer by the payment’s id, ours or the provider’s', async () => {
    const user = await createUser(t);
    const providerPaymentId = String(Date.now());
    const [payment] = await t.database.db
      .insert(payments)
      .values({
        userId: user.id,
        method: 'card',
        amountKopecks: 15_000,
        provider: 'sandbox',
        providerPaymentId,
      })
      .returning();
    for (const query of [payment!.id, providerPaymentId]) {
      const hits = await search(query);
      expect(hits, query).toEqual([
        { user: expect.objectContaining({ id: user.id }), matchedBy: 'payment' },
      ]);
    }
  });

  it('finds nothing for what names no account', async () => {
    expect(await search(`${tag()}@nowhere.example`)).toEqual([]);
    expect(await search(randomUUID())).toEqual([]);
    expect(await search('+7 999 000-00-00')).toEqual([]);
    expect(await search('   ')).toEqual([]);
  });

  it('finds by a short query only exactly: a part needs 3 characters', async () => {
    const word = tag();
    const short = await createUser(t, { firstName: `Ив${word}`, telegramId: 42 });
    expect(ids(await search('42'))).toEqual([short.id]);
    expect((await search('42'))[0]!.matchedBy).toBe('telegram');
    // "Ив" is in every default name of the fixtures, and yet no partial search runs for it.
    expect(await search('Ив')).toEqual([]);
    expect(await search('ив q')).toEqual([]);
    expect(ids(await search(`ив ${word}`))).toEqual([short.id]);
  });
});

describe('partial matches', () => {
  it('finds a part of the e-mail, the username and each name, whatever the case', async () => {
    const word = tag();
    const user = await createUser(t, {
      email: `mail.${word}@post.example`,
      emailKey: `mail.${word}@post.example`,
      userName: `nick_${word}`,
      userNameKey: `nick_${word}`,
      firstName: `Елизавета${word}`,
      middleName: `Петровна${word}`,
      lastName: `Сидорова${word}`,
    });
    for (const query of [
      `MAIL.${word.slice(0, 6)}`,
      `${word}@POST`,
      `ICK_${word}`,
      `ЕЛИЗАВЕТА${word}`,
      `петровна${word}`,
      `Сидоро`,
      `сидорова${word} елизавета${word}`,
      `елизавета${word} Сидорова${word}`,
    ]) {
      const hits = await search(query);
      expect(ids(hits), query).toContain(user.id);
      expect(hits.find((hit) => hit.user.id === user.id)!.matchedBy, query).toBe('partial');
    }
    // Every word must be there.
    expect(ids(await search(`сидорова${word} анна`))).not.toContain(user.id);
  });

  it('takes % and _ in a query as themselves, not as wildcards', async () => {
    const word = tag();
    const literal = await createUser(t, { lastName: `${word}50%_off` });
    const lookAlike = await createUser(t, { lastName: `${word}50xyoff` });
    expect(ids(await search(`${word}50%_off`))).toEqual([literal.id]);
    expect(ids(await search(`${word}50%`))).toEqual([literal.id]);
    expect(ids(await search(`${word}50__off`))).toEqual([]);
    expect(ids(await search(`${word}50`))).toEqual(
      expect.arrayContaining([literal.id, lookAlike.id]),
    );
    const underscores = await createUser(t, { lastName: `a___${word}` });
    expect(ids(await search('___'))).toEqual([underscores.id]);
    expect(await search('%%%')).toEqual([]);
    expect(ids(await search(`${word}\\`))).toEqual([]);
  });
});

describe('order and pages', () => {
  it('answers exact matches first, then partial ones, each newest first, paged over all', async () => {
    const word = tag();
    const now = Date.now();
    // Five accounts holding the word in their names, the newest last created…
    const partial = [];
    for (let index = 0; index < 5; index++) {
      partial.push(
        await createUser(t, {
          lastName: `${word}${index}`,
          createdAt: new Date(now - (index + 1) * MINUTE),
        }),
      );
    }
    // …and the oldest account named by the word exactly, as its username.
    const exact = await createUser(t, {
      userName: word,
      userNameKey: word,
      createdAt: new Date(now - 60 * MINUTE),
    });
    const whole = await search(word);
    expect(ids(whole)).toEqual([exact.id, ...partial.map((user) => user.id)]);
    expect(whole.map((hit) => hit.matchedBy)).toEqual([
      'username',
      ...partial.map(() => 'partial'),
    ]);

    const pages = [];
    for (let offset = 0; offset < 8; offset += 2) {
      pages.push(ids(await search(word, { limit: 2, offset })));
    }
    expect(pages).toEqual([
      [exact.id, partial[0]!.id],
      [partial[1]!.id, partial[2]!.id],
      [partial[3]!.id, partial[4]!.id],
      [],
    ]);
    expect(ids(await search(word, { limit: 3, offset: 1 }))).toEqual(
      partial.slice(0, 3).map((user) => user.id),
    );
    expect(await search(word, { limit: 0, offset: 0 })).toEqual([]);
  });

  it('answers an account matched both exactly and in part once, as exact', async () => {
    const word = tag();
    const user = await createUser(t, {
      email: `${word}@example.com`,
      emailKey: `${word}@example.com`,
      lastName: word,
    });
    expect(await search(`${word}@example.com`)).toEqual([
      { user: expect.objectContaining({ id: user.id }), matchedBy: 'email' },
    ]);
  });
});

describe('phone forms', () => {
  it('reads a Russian number with 8 or without the country code as +7', () => {
    expect(phoneForms('+7 (900) 123-45-67')).toEqual(['+79001234567']);
    expect(phoneForms('8 900 123 45 67')).toEqual(['+89001234567', '+79001234567']);
    expect(phoneForms('900.123.45.67')).toEqual(['+9001234567', '+79001234567']);
    expect(phoneForms('123456')).toEqual([]);
    expect(phoneForms('ivan 900')).toEqual([]);
  });
});

describe('the index', () => {
  it('is the one the partial search reads (its expression is the index’s)', async () => {
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      return tx.execute(
        sql`EXPLAIN SELECT id FROM users WHERE ${SEARCHED_TEXT} LIKE lower(${'%abcdef%'})`,
      );
    });
    const text = JSON.stringify((plan as unknown as { rows: unknown[] }).rows);
    expect(text).toContain('users_search_trgm_idx');
  });
});
