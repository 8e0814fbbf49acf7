/**
 * Every table of the migrated database has exactly one owner that says what an account's erasure
 * does to it (db/data-owners.ts): a new table nobody declares, or two modules claiming the same
 * one, fails here before its rows outlive an erasure or are erased twice.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import type { DataOwner } from '../../db/data-owners.js';
import type { Executor } from '../../db/database.js';

/** The migrations' own bookkeeping (db/migrate.ts), which belongs to no module. */
const BOOKKEEPING = 'schema_migrations';

async function tablesOf(db: Executor): Promise<string[]> {
  const result = (await db.execute(sql`SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> ${BOOKKEEPING}
    ORDER BY table_name`)) as unknown as { rows: { table_name: string }[] };
  return result.rows.map((row) => row.table_name);
}

/** What is wrong with the owners of these tables, one line each; empty when nothing is. */
function ownershipProblems(tables: string[], owners: readonly DataOwner[]): string[] {
  const ownersOf = new Map<string, string[]>();
  for (const owner of owners) {
    for (const table of owner.tables) {
      ownersOf.set(table.name, [...(ownersOf.get(table.name) ?? []), owner.module]);
    }
  }
  const problems: string[] = [];
  for (const table of tables) {
    const modules = ownersOf.get(table) ?? [];
    if (modules.length === 0) problems.push(`${table}: no owner erases or keeps it`);
    if (modules.length > 1) problems.push(`${table}: owned by ${modules.join(' and ')}`);
  }
  for (const [table, modules] of ownersOf) {
    if (!tables.includes(table))
      problems.push(`${table}: declared by ${modules[0]}, not in the database`);
  }
  return problems;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('every table has one owner', () => {
  it('declares each table of the database once, erased or kept', async () => {
    const tables = await tablesOf(t.database.db);
    expect(tables.length).toBeGreaterThan(20);
    expect(ownershipProblems(tables, t.app.deps.dataOwners.list())).toEqual([]);
  });

  it('says why each kept table is kept, and erases what it declares erased', () => {
    for (const owner of t.app.deps.dataOwners.list()) {
      for (const table of owner.tables) {
        if (table.onErasure === 'keep') expect(table.why, table.name).toMatch(/\S/);
        // Erased by the owner's own `erase`, or, as `why` says, by someone else (the erasure
        // itself, a cascade).
        if (table.onErasure === 'erase') expect(owner.erase ?? table.why, table.name).toBeTruthy();
      }
    }
  });

  it('reports a table nobody owns and a table two modules claim', async () => {
    await t.database.db.execute(sql`CREATE TABLE planted_notes (user_id uuid, note text)`);
    try {
      const tables = await tablesOf(t.database.db);
      expect(ownershipProblems(tables, t.app.deps.dataOwners.list())).toEqual([
        'planted_notes: no owner erases or keeps it',
      ]);
      const twice: DataOwner = {
        module: 'planted',
        tables: [
          { name: 'planted_notes', onErasure: 'erase' },
          { name: 'sessions', onErasure: 'keep', why: 'planted' },
        ],
      };
      expect(ownershipProblems(tables, [...t.app.deps.dataOwners.list(), twice])).toEqual([
        'sessions: owned by auth and planted',
      ]);
    } finally {
      await t.database.db.execute(sql`DROP TABLE planted_notes`);
    }
    expect(ownershipProblems(await tablesOf(t.database.db), t.app.deps.dataOwners.list())).toEqual(
      [],
    );
  });
});
