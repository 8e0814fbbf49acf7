import { type PaymentHistoryItem, paymentHistoryItemSchema } from '@portal/contracts/wallet';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { decodePageCursor, encodePageCursor } from '../../http/page-cursor.js';
import { TOP_UP_BY_CARD, TOP_UP_BY_SBP } from './messages.js';
import { CANCELED_STATUSES, FAILED_STATUSES, UNFINISHED_STATUSES } from './statuses.js';

export interface HistoryQuery {
  userId: string;
  /** Pending top-ups whose page has expired by then are unfinished. */
  now: Date;
  limit: number;
  cursor?: string | undefined;
  direction?: 'accrual' | 'writeOff' | undefined;
  currency?: 'rub' | 'points' | undefined;
}

interface HistoryRow {
  id: string;
  kind: PaymentHistoryItem['kind'];
  currency: 'rub' | 'points';
  amount: string;
  description: string;
  status: PaymentHistoryItem['status'];
  created_at: string | Date;
  /** A pending top-up's page: where to continue paying, and until when. */
  expires_at: string | Date | null;
  continue_url: string | null;
  receipt_id: string | null;
  /** created_at as text with microseconds: the cursor must not lose precision. */
  created_key: string;
}

/** A ledger entry's reference that can be a payment's id (others hold orders' ids or nothing). */
const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const quoted = (values: Iterable<string>) =>
  sql.join(
    [...values].map((value) => sql`${value}`),
    sql`, `,
  );

/** Only a web address is offered as a link: the page is the provider's, the link is ours. */
const isWebAddress = (url: string) =>
  paymentHistoryItemSchema.shape.continueUrl.safeParse(url).success;

/**
 * The caller's history, newest first: every ledger entry (completed), plus top-ups that have not
 * credited anything (pending, unfinished, failed, canceled) so a customer sees a payment they
 * just made. A pending top-up carries its page and when it expires, so the customer may go back
 * to it; these exist only in the owner's own history. Keyset paging over (created_at, id): stable
 * while new entries arrive.
 *
 * Each of the two sources is ordered and limited on its own, with the filters and the cursor inside:
 * then each is one short range of its index (ledger_entries_user_history_idx,
 * payments_user_unsettled_history_idx), however long the history and however deep the page. The
 * planner does not carry an outer ORDER BY into the branches of a UNION with WHERE clauses, so
 * ordering only the union read the account's whole history for every page. The ids stay UUIDs
 * until the outer SELECT so that the order is the indexes' order.
 */
export async function listHistory(db: Db, query: HistoryQuery) {
  const cursor = query.cursor
    ? decodePageCursor(
        query.cursor,
        (value) => !Number.isNaN(Date.parse(value)),
        (value) => UUID.test(value),
      )
    : undefined;
  const filtersOf = (row: { amount: SQL; currency: SQL; createdAt: SQL; id: SQL }) => {
    const filters: SQL[] = [];
    if (query.direction === 'accrual') filters.push(sql`${row.amount} > 0`);
    if (query.direction === 'writeOff') filters.push(sql`${row.amount} < 0`);
    if (query.currency) filters.push(sql`${row.currency} = ${query.currency}`);
    if (cursor) {
      filters.push(
        sql`(${row.createdAt}, ${row.id}) < (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)`,
      );
    }
    return filters.map((filter) => sql` AND ${filter}`);
  };
  const ledgerFilters = filtersOf({
    amount: sql`e.amount`,
    currency: sql`e.currency`,
    createdAt: sql`e.created_at`,
    id: sql`e.id`,
  });
  const paymentFilters = filtersOf({
    amount: sql`p.amount_kopecks`,
    currency: sql`'rub'`,
    createdAt: sql`p.created_at`,
    id: sql`p.id`,
  });
  const limit = query.limit + 1;

  const result = await db.execute(sql`
    SELECT h.id::text AS id, h.kind, h.currency, h.signed_amount::text AS amount, h.description,
           h.status, h.created_at,
           CASE WHEN h.status = 'pending' THEN h.expires_at END AS expires_at,
           CASE WHEN h.status = 'pending' THEN h.redirect_url END AS continue_url,
           h.receipt_id::text AS receipt_id,
           to_char(h.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
    FROM (
      (SELECT e.id, e.kind, e.currency, e.amount AS signed_amount, e.description,
              'completed' AS status, e.created_at, NULL::timestamptz AS expires_at,
              NULL::text AS redirect_url,
              -- A top-up's or refund's receipt: same payment, type and amount (receipts_payment_idx).
              -- Two refunds of one amount show the first such receipt each.
              CASE WHEN e.kind IN ('topUp', 'refund') AND e.reference ~ ${UUID_PATTERN} THEN
                (SELECT r.id FROM receipts r
                 WHERE r.payment_id = e.reference::uuid
                   AND r.type = CASE e.kind WHEN 'topUp' THEN 'income' ELSE 'refund' END
                   AND r.amount_kopecks = abs(e.amount)
                 ORDER BY r.receipt_datetime, r.id LIMIT 1)
              END AS receipt_id
       FROM ledger_entries e
       WHERE e.user_id = ${query.userId}${sql.join(ledgerFilters)}
       ORDER BY e.created_at DESC, e.id DESC
       LIMIT ${limit})
      UNION ALL
      (SELECT p.id, 'topUp', 'rub', p.amount_kopecks,
              CASE p.method WHEN 'sbp' THEN ${TOP_UP_BY_SBP} ELSE ${TOP_UP_BY_CARD} END,
              CASE
                WHEN p.status IN (${quoted(UNFINISHED_STATUSES)}) THEN 'unfinished'
                WHEN p.status IN (${quoted(FAILED_STATUSES)}) THEN 'failed'
                WHEN p.status IN (${quoted(CANCELED_STATUSES)}) THEN 'canceled'
                WHEN p.expires_at <= ${query.now.toISOString()}::timestamptz THEN 'unfinished'
                ELSE 'pending'
              END,
              p.created_at, p.expires_at, p.redirect_url, NULL::uuid
       FROM payments p
       WHERE p.user_id = ${query.userId} AND p.credited_at IS NULL${sql.join(paymentFilters)}
       ORDER BY p.created_at DESC, p.id DESC
       LIMIT ${limit})
    ) h
    ORDER BY h.created_at DESC, h.id DESC
    LIMIT ${limit}
  `);
  const rows = (result as unknown as { rows: HistoryRow[] }).rows;
  const page = rows.slice(0, query.limit);
  const data: PaymentHistoryItem[] = page.map((row) => {
    const signed = Number(row.amount);
    const amount = Math.abs(signed);
    const item: PaymentHistoryItem = {
      id: row.id,
      kind: row.kind,
      direction: signed < 0 ? 'writeOff' : 'accrual',
      currency: row.currency,
      amount: row.currency === 'rub' ? amount / 100 : amount,
      description: row.description,
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
    };
    if (row.expires_at) item.expiresAt = new Date(row.expires_at).toISOString();
    if (row.continue_url && isWebAddress(row.continue_url)) item.continueUrl = row.continue_url;
    if (row.receipt_id) item.receiptId = row.receipt_id;
    return item;
  });
  const last = page.at(-1);
  return {
    data,
    nextCursor:
      rows.length > query.limit && last ? encodePageCursor(last.created_key, last.id) : null,
  };
}
