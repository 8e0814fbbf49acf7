import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/test-database.js';
import { afterCommit } from './after-commit.js';
import type { Database } from './database.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

it('runs the work once the transaction committed, before its promise resolves', async () => {
  const done: string[] = [];
  const answer = await database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1`);
    await afterCommit(tx, async () => {
      done.push('first');
    });
    await afterCommit(tx, async () => {
      done.push('second');
    });
    expect(done).toEqual([]);
    return 'answer';
  });
  expect(answer).toBe('answer');
  expect(done).toEqual(['first', 'second']);
});

it('never runs the work of a transaction that rolled back', async () => {
  const done: string[] = [];
  const rolledBack = database.db.transaction(async (tx) => {
    await afterCommit(tx, async () => {
      done.push('work');
    });
    throw new Error('rolled back');
  });
  await expect(rolledBack).rejects.toThrow('rolled back');
  expect(done).toEqual([]);
});

it('runs it at once outside a transaction, and refuses a nested transaction', async () => {
  const done: string[] = [];
  await afterCommit(database.db, async () => {
    done.push('work');
  });
  expect(done).toEqual(['work']);
  const nested = database.db.transaction((tx) =>
    tx.transaction((inner) => afterCommit(inner, async () => {})),
  );
  await expect(nested).rejects.toThrow(/not begun by db\.transaction/);
});
