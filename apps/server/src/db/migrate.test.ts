import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/test-database.js';
import { migrate, readMigrations } from './migrate.js';

describe('migrations', () => {
  it('applies nothing twice on an already migrated database', async () => {
    const database = await createTestDatabase();
    expect(await migrate(database)).toEqual([]);
    await database.close();
  });

  it('applies a new migration once, in its own transaction', async () => {
    const database = await createTestDatabase();
    const extra = [
      ...readMigrations(),
      { name: '9999_extra.sql', sql: 'CREATE TABLE extra (id int)', checksum: 'a' },
    ];
    expect(await migrate(database, extra)).toEqual(['9999_extra.sql']);
    expect(await migrate(database, extra)).toEqual([]);
    await database.close();
  });

  it('rolls back a failing migration completely', async () => {
    const database = await createTestDatabase();
    const broken = [
      ...readMigrations(),
      {
        name: '9999_broken.sql',
        sql: 'CREATE TABLE half (id int); SELECT no_such_function();',
        checksum: 'b',
      },
    ];
    await expect(migrate(database, broken)).rejects.toThrow(/9999_broken.sql не применена/);
    const rows = await database.withMigrationLock((session) =>
      session.query("SELECT to_regclass('half') AS name"),
    );
    expect(rows[0]).toEqual({ name: null });
    await database.close();
  });

  it('refuses to start when a landed migration was edited', async () => {
    const database = await createTestDatabase();
    const edited = readMigrations().map((migration, index) =>
      index === 0 ? { ...migration, checksum: 'changed' } : migration,
    );
    await expect(migrate(database, edited)).rejects.toThrow(/изменена после применения/);
    await database.close();
  });

  it('accepts a landed migration whose comments only were reworded, and records it anew', async () => {
    const database = await createTestDatabase();
    const auth = readMigrations().find((migration) => migration.name === '0100_auth.sql')!;
    // What a database migrated before the rewording holds.
    const before = '6f4457d1e8519d6c16352f1a1d7a99ad826f2c68c56e2aecf260d5638353f463';
    const recorded = () =>
      database.withMigrationLock((session) =>
        session.query<{ checksum: string }>(
          "SELECT checksum FROM schema_migrations WHERE name = '0100_auth.sql'",
        ),
      );
    await database.withMigrationLock((session) =>
      session.query("UPDATE schema_migrations SET checksum = $1 WHERE name = '0100_auth.sql'", [
        before,
      ]),
    );
    expect(await migrate(database)).toEqual([]);
    expect(await recorded()).toEqual([{ checksum: auth.checksum }]);
    await database.close();
  });
});
