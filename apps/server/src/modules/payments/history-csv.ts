import {
  HISTORY_COMPLETED_TEXT,
  HISTORY_CSV_COLUMNS,
  HISTORY_CURRENCY_TEXTS,
  HISTORY_STATUS_TEXTS,
  type PaymentHistoryExportQuery,
  type PaymentHistoryItem,
} from '@portal/contracts/wallet';
import type { Db } from '../../db/database.js';
import { listHistory } from './history.js';

/** Rows read per query while the file is written: a long history never sits in memory whole. */
const ROWS_PER_READ = 500;
const DEFAULT_TIME_ZONE = 'Europe/Moscow';
/** Excel and LibreOffice read a UTF-8 file as such only when it starts with the byte order mark. */
const BOM = '\uFEFF';

/**
 * One field as Excel reads it back: quoted when it holds the separator, a quote or a line break;
 * a text that starts like a formula (`=`, `+`, `-`, `@`, tab, CR) is prefixed with `'` so that a
 * service name a sibling site chose is shown, never run, by the spreadsheet.
 */
export function csvField(value: string, { isNumber = false } = {}): string {
  const safe = !isNumber && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** '-1234,56' (roubles) or '150' (points): a number a Russian spreadsheet reads as one. */
export function csvAmount(item: Pick<PaymentHistoryItem, 'amount' | 'currency' | 'direction'>) {
  const sign = item.direction === 'writeOff' ? '-' : '';
  const digits =
    item.currency === 'rub' ? item.amount.toFixed(2).replace('.', ',') : `${item.amount}`;
  return `${sign}${digits}`;
}

/** '25.11.2026 14:05' in the reader's time zone. */
function dateFormatter(timeZone: string) {
  const format = new Intl.DateTimeFormat('ru-RU', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (iso: string) => format.format(new Date(iso)).replace(',', '');
}

function csvLine(fields: string[]): string {
  return `${fields.join(';')}\r\n`;
}

/**
 * The caller's whole history with the filters on screen, as the lines of a CSV file (UTF-8 with
 * BOM, `;` between fields, CRLF, Russian dates and decimal commas: it opens as a table in Excel
 * and LibreOffice). Read page by page with the history's own query, newest first.
 */
export async function* historyCsv(
  db: Db,
  query: PaymentHistoryExportQuery & { userId: string; now: Date },
): AsyncGenerator<string> {
  const when = dateFormatter(query.timeZone ?? DEFAULT_TIME_ZONE);
  yield BOM + csvLine([...HISTORY_CSV_COLUMNS]);
  let cursor: string | undefined;
  do {
    const page = await listHistory(db, {
      userId: query.userId,
      now: query.now,
      limit: ROWS_PER_READ,
      cursor,
      direction: query.direction,
      currency: query.currency,
    });
    yield page.data
      .map((item) =>
        csvLine([
          when(item.createdAt),
          csvField(item.description),
          csvField(csvAmount(item), { isNumber: true }),
          HISTORY_CURRENCY_TEXTS[item.currency],
          item.status === 'completed' ? HISTORY_COMPLETED_TEXT : HISTORY_STATUS_TEXTS[item.status],
        ]),
      )
      .join('');
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** 'istoriya-operaciy-2026-11-25.csv': the date the file was made, in the reader's zone. */
export function historyCsvFileName(now: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone }).format(now);
  return `istoriya-operaciy-${day}.csv`;
}
