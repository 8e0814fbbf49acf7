import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, signIn } from '../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../test/support/test-app.js';
import { fundUser } from '../../test/support/wallet.js';
import { DEFAULT_READ_CACHE_LIMITS, ENTRIES_PER_USER, UserReadCache } from './user-reads.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

/** A change that announces nothing: the triggers are off for its transaction. */
async function changeSilently(statement: SQL) {
  await t.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(statement);
  });
}

async function read(method: 'GET' | 'POST', url: string, headers: Record<string, string>) {
  const answer = await t.app.inject({ method, url, headers });
  expect(answer.statusCode).toBe(200);
  return answer.json();
}

interface Case {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  /** Changes what the read answers without announcing it. */
  silent: (userId: string) => SQL;
  /** Changes it the way the portal does (any write fires the triggers). */
  announced: (userId: string, headers: Record<string, string>) => Promise<unknown>;
}

const serviceRow = (userId: string, name: string) => sql`
  INSERT INTO services (user_id, sibling, external_id, name, server_count, price_kopecks, paid_until)
  VALUES (${userId}, 'hosting', ${`ext-${name}-${userId}`}, ${name}, 1, 179000, now() + interval '30 days')`;

const cases: Case[] = [
  {
    name: 'the user answer',
    method: 'POST',
    url: '/authms/api/Auth/user',
    silent: (userId) => sql`UPDATE users SET first_name = 'Тихоня' WHERE id = ${userId}`,
    announced: (userId) =>
      t.database.db.execute(sql`UPDATE users SET last_name = 'Громов' WHERE id = ${userId}`),
  },
  {
    name: 'the devices list',
    method: 'POST',
    url: '/authms/api/Auth/devices',
    silent: (userId) => sql`UPDATE sessions SET user_agent = 'тихо' WHERE user_id = ${userId}`,
    announced: (userId) => signIn(t, userId, { userAgent: 'второй' }),
  },
  {
    name: 'the owner services',
    method: 'GET',
    url: '/serversms/api/Servers/owner/services',
    silent: (userId) => serviceRow(userId, 'Тихий'),
    announced: (userId) => t.database.db.execute(serviceRow(userId, 'Громкий')),
  },
  {
    name: 'a payment history page',
    method: 'GET',
    url: '/payments/payments/user?limit=5',
    silent: (userId) => sql`
      INSERT INTO ledger_entries (user_id, currency, amount, kind, description, idempotency_key)
      VALUES (${userId}, 'points', 7, 'adjustment', 'Тихо', ${`silent-${userId}`})`,
    announced: (userId) => fundUser(t, userId, { kopecks: 500 }),
  },
];

describe('the frequent reads of an account', () => {
  it.each(cases)('answer $name from memory until the account changes', async (testCase) => {
    const { user, headers } = await createSignedInUser(t);
    const first = await read(testCase.method, testCase.url, headers);

    await changeSilently(testCase.silent(user.id));
    expect(await read(testCase.method, testCase.url, headers)).toEqual(first);

    await testCase.announced(user.id, headers);
    const fresh = await read(testCase.method, testCase.url, headers);
    expect(fresh).not.toEqual(first);
    // Fresh from the database: the silent change shows as well now.
    expect(JSON.stringify(fresh)).toMatch(/Тихон|тихо|Тихий|Тихо/);
  });

  it("keeps one account's change from dropping another's answers, and the reverse", async () => {
    const one = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const url = '/authms/api/Auth/user';
    const otherFirst = await read('POST', url, other.headers);
    await read('POST', url, one.headers);

    await changeSilently(sql`UPDATE users SET first_name = 'Тихоня' WHERE id = ${other.user.id}`);
    await t.database.db.execute(
      sql`UPDATE users SET last_name = 'Громов' WHERE id = ${one.user.id}`,
    );
    expect(await read('POST', url, other.headers)).toEqual(otherFirst);
    expect((await read('POST', url, one.headers)).lastName).toBe('Громов');
  });

  it('does not remember an answer loaded while the account changed', async () => {
    const { user } = await createSignedInUser(t);
    const reads = t.app.deps.userReads;
    const stale = await reads.read(user.id, 'probe', async () => {
      await t.database.db.execute(sql`UPDATE users SET first_name = 'Пётр' WHERE id = ${user.id}`);
      await reads.settled();
      return 'loaded before the change';
    });
    expect(stale).toBe('loaded before the change');
    expect(await reads.read(user.id, 'probe', async () => 'loaded after')).toBe('loaded after');
    expect(await reads.read(user.id, 'probe', async () => 'not asked')).toBe('loaded after');
  });

  it('remembers at most ENTRIES_PER_USER answers of one account, forgetting the oldest', async () => {
    const { user } = await createSignedInUser(t);
    const reads = t.app.deps.userReads;
    const keys = Array.from({ length: ENTRIES_PER_USER + 1 }, (_, index) => `page-${index}`);
    for (const key of keys) await reads.read(user.id, key, async () => `loaded ${key}`);
    expect(await reads.read(user.id, keys[0]!, async () => 'loaded again')).toBe('loaded again');
    expect(await reads.read(user.id, keys.at(-1)!, async () => 'not asked')).toBe(
      `loaded ${keys.at(-1)}`,
    );
  });

  it('remembers at most ACCOUNT_CACHE_MB of answers in all, forgetting the oldest accounts first', async () => {
    const reads = t.app.deps.userReads;
    // Answers of 1 MB as JSON (a string of 1 MB minus its quotes).
    const answer = 'x'.repeat(1024 * 1024 - 2);
    const accounts = Array.from(
      { length: DEFAULT_READ_CACHE_LIMITS.bytes / (1024 * 1024) + 1 },
      () => randomUUID(),
    );
    for (const account of accounts) await reads.read(account, 'big', async () => answer);
    expect(await reads.read(accounts[0]!, 'big', async () => 'loaded again')).toBe('loaded again');
    expect(await reads.read(accounts.at(-1)!, 'big', async () => 'not asked')).toBe(answer);
  });

  it('remembers at most ACCOUNT_CACHE_ACCOUNTS accounts, forgetting the one read longest ago', async () => {
    const reads = new UserReadCache(t.database, { accounts: 2, bytes: 1024 * 1024 });
    await reads.start();
    try {
      const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
      for (const account of [first, second, first, third]) {
        await reads.read(account!, 'user', async () => `loaded ${account}`);
      }
      // The third account pushed out the second (read longest ago), not the first.
      expect(await reads.read(first!, 'user', async () => 'loaded again')).toBe(`loaded ${first}`);
      expect(await reads.read(second!, 'user', async () => 'loaded again')).toBe('loaded again');
    } finally {
      await reads.stop();
    }

    const none = new UserReadCache(t.database, { accounts: 0, bytes: 1024 * 1024 });
    await none.start();
    try {
      const account = randomUUID();
      await none.read(account, 'user', async () => 'first');
      expect(await none.read(account, 'user', async () => 'second')).toBe('second');
    } finally {
      await none.stop();
    }
  });

  it('does not remember a failed read', async () => {
    const { user } = await createSignedInUser(t);
    const reads = t.app.deps.userReads;
    await expect(
      reads.read(user.id, 'failing', async () => {
        throw new Error('база недоступна');
      }),
    ).rejects.toThrow('база недоступна');
    expect(await reads.read(user.id, 'failing', async () => 'ok')).toBe('ok');
  });
});

describe('while the subscription to change notices is lost', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'reads go to the database, and memory is used again once it is back',
    async () => {
      const { user, headers } = await createSignedInUser(t);
      const url = '/authms/api/Auth/user';
      await read('POST', url, headers);

      const [{ terminated }] = (
        (await t.database.db.execute(sql`
          SELECT count(pg_terminate_backend(pid))::int AS terminated FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%'`)) as unknown as {
          rows: { terminated: number }[];
        }
      ).rows as [{ terminated: number }];
      expect(terminated).toBe(1);

      // Changes meanwhile are not announced to anyone; the answer must still be fresh.
      await expect
        .poll(async () => {
          await changeSilently(sql`UPDATE users SET first_name = 'Сеть' WHERE id = ${user.id}`);
          return (await read('POST', url, headers)).firstName;
        })
        .toBe('Сеть');

      // Back (the listener reconnects within a second): remembered again, so a silent change
      // stays unseen.
      let attempt = 0;
      await expect
        .poll(
          async () => {
            await read('POST', url, headers);
            const name = `Снова${++attempt}`;
            await changeSilently(sql`UPDATE users SET first_name = ${name} WHERE id = ${user.id}`);
            return (await read('POST', url, headers)).firstName !== name;
          },
          { timeout: 10_000 },
        )
        .toBe(true);
    },
  );
});
