// The databases the scale scenarios (scale-scenarios.ts) run on, written with SQL straight into the
// tables (generate_series), not through the API: a million ledger entries through the API would
// take hours; PGlite takes minutes even so (the bench prints how long). Triggers are off while seeding (session_replication_role = replica): the change
// announcements and foreign-key checks would cost more than the rows, and no portal is listening.
// Balances are not the ledger's sums: only reads run on this data.
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';

export interface DatabaseSize {
  accounts: number;
  /** Ledger entries spread over the accounts, besides those of the two measured accounts. */
  ledgerEntries: number;
  sessions: number;
  /** Entries of the account whose deep history is read. */
  longHistory: number;
}

export const LARGE: DatabaseSize = {
  accounts: 100_000,
  ledgerEntries: 1_000_000,
  sessions: 200_000,
  longHistory: 50_000,
};

/** The bench's own accounts and sessions only: what the large database is compared with. */
export function small(sessions: number): DatabaseSize {
  return { accounts: sessions, ledgerEntries: 0, sessions, longHistory: 0 };
}

/** Entries of the account every single-account read is made with (its history page too). */
export const SHORT_HISTORY = 10;

/** Account 1 reads its user, devices, services and history; account 2 has the long history. */
export const accountId = (index: number) =>
  `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
/** Session n (from 1) belongs to account ((n - 1) mod accounts) + 1; its bearer token is this. */
export const sessionToken = (index: number) => `scale-session-${String(index).padStart(10, '0')}`;

/** The names the accounts are given, in turn: each pair holds 1 account in 500. */
export const FIRST_NAMES = [
  'Иван',
  'Анна',
  'Сергей',
  'Мария',
  'Алексей',
  'Ольга',
  'Дмитрий',
  'Елена',
  'Павел',
  'Наталья',
];
export const LAST_NAMES = [
  'Смирнов',
  'Иванов',
  'Кузнецов',
  'Попов',
  'Васильев',
  'Петров',
  'Соколов',
  'Михайлов',
  'Новиков',
  'Фёдоров',
  'Морозов',
  'Волков',
  'Алексеев',
  'Лебедев',
  'Семёнов',
  'Егоров',
  'Павлов',
  'Козлов',
  'Степанов',
  'Николаев',
  'Орлов',
  'Андреев',
  'Макаров',
  'Никитин',
  'Захаров',
  'Зайцев',
  'Соловьёв',
  'Борисов',
  'Яковлев',
  'Григорьев',
  'Романов',
  'Воробьёв',
  'Сергеев',
  'Кузьмин',
  'Фролов',
  'Александров',
  'Дмитриев',
  'Королёв',
  'Гусев',
  'Киселёв',
  'Ильин',
  'Максимов',
  'Поляков',
  'Сорокин',
  'Виноградов',
  'Ковалёв',
  'Белов',
  'Медведев',
  'Антонов',
  'Тарасов',
];
const sqlList = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

/** Account n's phone, as the Telegram bot stores one: '+7900' and n in 7 digits. */
export const accountPhone = (index: number) => `+7900${String(index).padStart(7, '0')}`;
const SQL_PHONE = (expression: string) => `'+7900' || lpad(${expression}::text, 7, '0')`;

const SQL_ACCOUNT_ID = (expression: string) =>
  `('00000000-0000-4000-8000-' || lpad(to_hex(${expression}), 12, '0'))::uuid`;

/** Migrates and fills an empty database; answers how long the filling took. */
export async function seedDatabase(database: Database, size: DatabaseSize, passwordHash: string) {
  await migrate(database);
  const started = performance.now();
  const statements = [
    // Names and phones vary as real ones do, so a search by a part of a name finds some
    // accounts, not all of them (scale-scenarios.ts measures the staff search here).
    `INSERT INTO users (id, email, email_key, user_name, user_name_key, password_hash,
       first_name, last_name, phone, confirmed_at, created_at)
     SELECT ${SQL_ACCOUNT_ID('i')}, 'scale_' || i || '@example.com', 'scale_' || i || '@example.com',
       'scale_' || i, 'scale_' || i, '${passwordHash}',
       (ARRAY[${sqlList(FIRST_NAMES)}])[1 + i % ${FIRST_NAMES.length}],
       (ARRAY[${sqlList(LAST_NAMES)}])[1 + (i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}],
       ${SQL_PHONE('i')}, now(), now() - i * interval '1 minute'
     FROM generate_series(1, ${size.accounts}) i`,
    `INSERT INTO sessions (user_id, token_hash, user_agent, ip_address, remember_me, created_at,
       last_activity_at, expires_at)
     SELECT ${SQL_ACCOUNT_ID(`((i - 1) % ${size.accounts}) + 1`)},
       encode(sha256(convert_to('scale-session-' || lpad(i::text, 10, '0'), 'UTF8')), 'hex'),
       'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0', '127.0.0.1', true, now(), now(),
       now() + interval '90 days'
     FROM generate_series(1, ${size.sessions}) i`,
    // One service per account, a few for the measured one.
    `INSERT INTO services (user_id, sibling, external_id, name, server_count, price_kopecks,
       paid_until)
     SELECT ${SQL_ACCOUNT_ID(`greatest(i - 2, 1)`)}, 'hosting', 'scale-' || i, 'Сервер ' || i, 1,
       50000, now() + interval '30 days'
     FROM generate_series(1, ${size.accounts + 2}) i`,
    ledgerRows(`${SQL_ACCOUNT_ID('1')}`, SHORT_HISTORY, 'short'),
    ...(size.longHistory > 0
      ? [ledgerRows(`${SQL_ACCOUNT_ID('2')}`, size.longHistory, 'long')]
      : []),
    ...(size.ledgerEntries > 0
      ? [
          ledgerRows(
            SQL_ACCOUNT_ID(`((i - 1) % ${size.accounts}) + 1`),
            size.ledgerEntries - SHORT_HISTORY - size.longHistory,
            'spread',
          ),
          // A credited top-up behind every tenth entry, and some never finished: the payment
          // lookups, the history's union and the reconciliation's scans have rows to skip.
          `INSERT INTO payments (user_id, method, amount_kopecks, provider, status,
             provider_payment_id, credited_at, created_at, updated_at)
           SELECT ${SQL_ACCOUNT_ID(`((i - 1) % ${size.accounts}) + 1`)}, 'card', 10000, 'sandbox',
             CASE WHEN i % 50 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END, i::text,
             CASE WHEN i % 50 = 0 THEN NULL ELSE now() - i * interval '1 second' END,
             now() - i * interval '1 second', now() - i * interval '1 second'
           FROM generate_series(1, ${size.ledgerEntries / 10}) i`,
          `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, status, created_at,
             next_attempt_at, sent_at)
           SELECT 'scale_' || i || '@example.com', 'Письмо', 'Текст', '<p>Текст</p>', 'sent',
             now() - i * interval '1 second', now() - i * interval '1 second', now()
           FROM generate_series(1, ${size.accounts}) i`,
        ]
      : []),
  ];
  // The migrations' connection: no query deadline on it.
  await database.withMigrationLock(async (session) => {
    await session.exec('BEGIN');
    await session.exec('SET LOCAL session_replication_role = replica');
    for (const statement of statements) await session.exec(statement);
    await session.exec('COMMIT');
    await session.exec('ANALYZE');
  });
  return (performance.now() - started) / 1000;
}

/** `count` entries of roubles and points, one a minute back from now, newest first. */
function ledgerRows(userId: string, count: number, tag: string) {
  return `INSERT INTO ledger_entries (user_id, currency, amount, kind, description, reference,
     idempotency_key, created_at)
   SELECT ${userId}, CASE WHEN i % 5 = 0 THEN 'points' ELSE 'rub' END,
     CASE WHEN i % 3 = 0 THEN -100 ELSE 100 END, 'adjustment', 'Начисление', NULL,
     'scale-${tag}-' || i, now() - i * interval '1 minute'
   FROM generate_series(1, ${count}) i`;
}
