import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/support/fixtures.js';
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

  it('gives the live portal sessions of before 0815 the sign-in their log entry recorded', async () => {
    const database = await createTestDatabase();
    // The database as it was before the migration, with its sessions and log.
    await database.withMigrationLock(async (session) => {
      await session.exec('ALTER TABLE sessions DROP COLUMN sign_in_method, DROP COLUMN amr');
      await session.query("DELETE FROM schema_migrations WHERE name = '0815_session_sign_in.sql'");
    });
    const user = await createUser({ database });
    const createdAt = new Date(Date.now() - 60_000);
    const expiresAt = new Date(Date.now() + 60_000);
    const newSession = async (
      userAgent: string,
      more: { revokedAt?: Date; origin?: string } = {},
    ) => {
      const [row] = await database.withMigrationLock((session) =>
        session.query<{ id: string }>(
          `INSERT INTO sessions (user_id, token_hash, user_agent, client_origin, created_at,
             last_activity_at, expires_at, revoked_at)
           VALUES ($1, gen_random_uuid()::text, $2, $3, $4, $4, $5, $6) RETURNING id`,
          [user.id, userAgent, more.origin ?? null, createdAt, expiresAt, more.revokedAt ?? null],
        ),
      );
      return row!.id;
    };
    const logSignIn = (userAgent: string, occurredAt: Date, details: object) =>
      database.withMigrationLock((session) =>
        session.query(
          `INSERT INTO security_events (user_id, kind, occurred_at, user_agent, ip_address, details)
           VALUES ($1, 'sign_in', $2, $3, '', $4::jsonb)`,
          [user.id, occurredAt, userAgent, JSON.stringify(details)],
        ),
      );
    const live = await newSession('Firefox');
    const revoked = await newSession('Firefox', { revokedAt: createdAt });
    const sibling = await newSession('Firefox', { origin: 'https://shop.example' });
    const unlogged = await newSession('Safari');
    // An earlier sign-in of that browser, and one of another browser, are not the session's.
    await logSignIn('Firefox', new Date(createdAt.getTime() - 1_000), {
      method: 'password',
      amr: ['pwd'],
    });
    await logSignIn('Chrome', createdAt, { method: 'password', amr: ['pwd'] });
    await logSignIn('Firefox', createdAt, { method: 'yandex', amr: ['ext', 'otp'] });

    expect(await migrate(database)).toEqual(['0815_session_sign_in.sql']);
    const rows = await database.withMigrationLock((session) =>
      session.query<{ id: string; method: string | null; amr: string[] | null }>(
        'SELECT id, sign_in_method AS method, amr FROM sessions WHERE user_id = $1',
        [user.id],
      ),
    );
    const byId = new Map(rows.map(({ id, ...signIn }) => [id, signIn]));
    expect(byId.get(live)).toEqual({ method: 'yandex', amr: ['ext', 'otp'] });
    for (const id of [revoked, sibling, unlogged]) {
      expect(byId.get(id)).toEqual({ method: null, amr: null });
    }
    await database.close();
  });
});
