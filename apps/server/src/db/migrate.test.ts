import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database.js';
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
});
