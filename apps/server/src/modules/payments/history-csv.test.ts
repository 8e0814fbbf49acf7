import { HISTORY_TIME_ZONE_UNKNOWN } from '@portal/contracts/wallet';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { createWalletTestApp, fundUser, requestTopUp } from '../../../test/support/wallet.js';
import { csvAmount, csvField } from './history-csv.js';
import { TOP_UP_BY_CARD } from './messages.js';
import { ledgerEntries } from './schema.js';

const CSV = '/payments/payments/user/csv';
const MINUTE = 60_000;

async function download(t: TestApp, headers: Record<string, string>, query = '') {
  const response = await t.app.inject({ method: 'GET', url: `${CSV}${query}`, headers });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  return response;
}

/** The file's lines without the final empty one; every line ends with CRLF. */
function linesOf(body: string): string[] {
  expect(body.endsWith('\r\n')).toBe(true);
  return body.slice(0, -2).split('\r\n');
}

/** An entry written straight to the ledger (a read test: the balance does not matter here). */
async function entry(
  t: TestApp,
  userId: string,
  values: { amount: number; currency?: 'rub' | 'points'; description: string; createdAt: Date },
) {
  await t.app.deps.db.insert(ledgerEntries).values({
    userId,
    kind: 'purchase',
    currency: values.currency ?? 'rub',
    amount: values.amount,
    description: values.description,
    idempotencyKey: `csv-test:${Math.random()}`,
    createdAt: values.createdAt,
  });
}

describe('the history as a CSV file', () => {
  const testApp = createWalletTestApp();

  it('is UTF-8 with BOM, ; separated, Russian dates and amounts, newest first, statuses in words', async () => {
    const t = await testApp;
    t.clock.set(new Date('2026-11-25T11:05:00Z'));
    const { user, headers } = await createSignedInUser(t);
    await fundUser(t, user.id, { kopecks: 123_456 });
    t.clock.advance(MINUTE);
    await fundUser(t, user.id, { points: 40 });
    t.clock.advance(MINUTE);
    await entry(t, user.id, {
      amount: -50_005,
      description: 'Сервер',
      createdAt: t.clock.now(),
    });
    t.clock.advance(MINUTE);
    expect((await requestTopUp(t, { user, headers }, 250)).statusCode).toBe(200);

    const response = await download(t, headers);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="istoriya-operaciy-2026-11-25.csv"',
    );
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(linesOf(response.body)).toEqual([
      '\uFEFFДата;Операция;Сумма;Валюта;Статус',
      `25.11.2026 14:08;${TOP_UP_BY_CARD};250,00;руб.;Ожидает оплаты`,
      '25.11.2026 14:07;Сервер;-500,05;руб.;Выполнено',
      '25.11.2026 14:06;Тестовое начисление;40;баллы;Выполнено',
      '25.11.2026 14:05;Тестовое начисление;1234,56;руб.;Выполнено',
    ]);
  });

  it('keeps the filters on screen and writes the dates in the browser’s time zone', async () => {
    const t = await testApp;
    t.clock.set(new Date('2026-11-25T23:30:00Z'));
    const { user, headers } = await createSignedInUser(t);
    await fundUser(t, user.id, { kopecks: 10_000, points: 5 });
    await entry(t, user.id, {
      amount: -3,
      currency: 'points',
      description: 'Продление',
      createdAt: t.clock.now(),
    });

    const writeOffs = linesOf((await download(t, headers, '?direction=writeOff')).body);
    expect(writeOffs.slice(1)).toEqual(['26.11.2026 02:30;Продление;-3;баллы;Выполнено']);
    const roubles = linesOf((await download(t, headers, '?currency=rub')).body);
    expect(roubles.slice(1)).toEqual([
      '26.11.2026 02:30;Тестовое начисление;100,00;руб.;Выполнено',
    ]);
    const inVladivostok = await download(t, headers, '?currency=rub&timeZone=Asia%2FVladivostok');
    expect(linesOf(inVladivostok.body)[1]).toMatch(/^26\.11\.2026 09:30;/);
    expect(inVladivostok.headers['content-disposition']).toContain(
      'istoriya-operaciy-2026-11-26.csv',
    );
  });

  it('refuses an unknown time zone or filter with a Russian message, and a caller without a session', async () => {
    const t = await testApp;
    const { headers } = await createSignedInUser(t);
    const zone = await t.app.inject({
      method: 'GET',
      url: `${CSV}?timeZone=Mars%2FOlympus`,
      headers,
    });
    expect(zone.statusCode).toBe(400);
    expect(zone.json().message).toBe(HISTORY_TIME_ZONE_UNKNOWN);
    const filter = await t.app.inject({ method: 'GET', url: `${CSV}?direction=sideways`, headers });
    expect(filter.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: CSV })).statusCode).toBe(401);
  });

  it('shows a name that looks like a formula as text, and quotes separators and quotes', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const names = ['=HYPERLINK("http://evil")', '@SUM(A1)', 'Сервер; "Про"', 'Две\nстроки'];
    for (const description of names) {
      await entry(t, user.id, { amount: -100, description, createdAt: t.clock.now() });
      t.clock.advance(1000);
    }
    const body = (await download(t, headers)).body;
    expect(body).toContain(`;"'=HYPERLINK(""http://evil"")";-1,00;`);
    expect(body).toContain(`;'@SUM(A1);-1,00;`);
    expect(body).toContain(`;"Сервер; ""Про""";-1,00;`);
    expect(body).toContain(`;"Две\nстроки";-1,00;`);
    expect(csvField('-5')).toBe("'-5");
    expect(csvField('-5', { isNumber: true })).toBe('-5');
    expect(csvAmount({ amount: 0.5, currency: 'rub', direction: 'writeOff' })).toBe('-0,50');
  });

  it('holds a long history whole, across the pages it is read in, each entry once', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    await t.app.deps.db.execute(sql`
      INSERT INTO ledger_entries (user_id, currency, amount, kind, description, idempotency_key, created_at)
      SELECT ${user.id}::uuid, 'rub', -n, 'purchase', 'Покупка ' || n, 'csv-long:' || ${user.id} || ':' || n,
             '2026-01-01T00:00:00Z'::timestamptz + n * interval '1 minute'
      FROM generate_series(1, 1203) AS n`);
    const rows = linesOf((await download(t, headers)).body).slice(1);
    expect(rows).toHaveLength(1203);
    const names = rows.map((row) => row.split(';')[1]);
    expect(new Set(names).size).toBe(1203);
    expect(names[0]).toBe('Покупка 1203');
    expect(names.at(-1)).toBe('Покупка 1');
  });
});
