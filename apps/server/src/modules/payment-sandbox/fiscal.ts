import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { tbankDateTime } from '../../adapters/tbank/client.js';
import { RECEIPT_TAXATIONS, RECEIPT_VATS } from '../../adapters/tbank/receipt-codes.js';
import type { Executor } from '../../db/database.js';

/** The sandbox's pretend fiscal storage (ФН) and cash register: 16 digits each, like real ones. */
export const SANDBOX_FN_NUMBER = '9999078900012345';
export const SANDBOX_ECR_REG_NUMBER = '0000000001012345';

const TAXATIONS: ReadonlySet<string> = new Set(RECEIPT_TAXATIONS);
const TAXES: ReadonlySet<string> = new Set(RECEIPT_VATS);

interface ReceiptItemLike {
  Name?: unknown;
  Price?: unknown;
  Quantity?: unknown;
  Amount?: unknown;
  Tax?: unknown;
  MeasurementUnit?: unknown;
  PaymentMethod?: unknown;
  PaymentObject?: unknown;
}

const isKopecks = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * Why T-Bank would refuse this receipt for an operation of `amount` kopecks, or null when it is
 * acceptable: items present (at most 100), each with a name, price × quantity = amount and a
 * known tax; a known taxation; an e-mail or a phone; the items' total equal to the operation's
 * amount; FFD 1.2 items with payment method, object and unit.
 */
export function receiptProblem(receipt: unknown, amount: number): string | null {
  if (typeof receipt !== 'object' || receipt === null || Array.isArray(receipt)) {
    return 'Receipt: ожидается объект';
  }
  const r = receipt as Record<string, unknown>;
  if (typeof r.Taxation !== 'string' || !TAXATIONS.has(r.Taxation)) return 'Receipt.Taxation';
  if (typeof r.Email !== 'string' && typeof r.Phone !== 'string') return 'Receipt: Email или Phone';
  const isFfd12 = r.FfdVersion === '1.2';
  if (!Array.isArray(r.Items) || r.Items.length === 0 || r.Items.length > 100) {
    return 'Receipt.Items';
  }
  let total = 0;
  for (const raw of r.Items as ReceiptItemLike[]) {
    if (typeof raw !== 'object' || raw === null) return 'Receipt.Items';
    const { Name, Price, Quantity, Amount, Tax } = raw;
    if (typeof Name !== 'string' || Name.length === 0 || Name.length > 128) return 'Items.Name';
    if (!isKopecks(Price) || !isKopecks(Amount) || typeof Quantity !== 'number') {
      return 'Items.Price/Quantity/Amount';
    }
    if (Math.round(Price * Quantity) !== Amount) return 'Items.Amount ≠ Price × Quantity';
    if (typeof Tax !== 'string' || !TAXES.has(Tax)) return 'Items.Tax';
    if (
      isFfd12 &&
      (typeof raw.PaymentMethod !== 'string' ||
        typeof raw.PaymentObject !== 'string' ||
        typeof raw.MeasurementUnit !== 'string')
    ) {
      return 'Items: для ФФД 1.2 нужны PaymentMethod, PaymentObject и MeasurementUnit';
    }
    total += Amount;
  }
  if (total !== amount) return 'Сумма позиций чека не равна сумме операции';
  return null;
}

/**
 * The fiscal fields of a document the sandbox "prints": a number from its own sequence, the
 * shift of the day, and a fiscal attribute (ФП) derived from the number so that it looks like
 * one (10 digits) and stays the same on a repeat.
 */
export async function printFiscalDocument(executor: Executor, now: Date) {
  const result = (await executor.execute(
    sql`SELECT nextval('sandbox_fiscal_document_seq')::text AS n`,
  )) as unknown as { rows: { n: string }[] };
  const documentNumber = Number(result.rows[0]!.n);
  const hash = createHmac('sha256', SANDBOX_FN_NUMBER).update(String(documentNumber)).digest();
  const attribute = 1_000_000_000 + (hash.readUInt32BE(0) % 3_000_000_000);
  return {
    FiscalNumber: documentNumber,
    ShiftNumber: Math.floor(now.getTime() / 86_400_000) % 10_000,
    ReceiptDatetime: tbankDateTime(now),
    FnNumber: SANDBOX_FN_NUMBER,
    EcrRegNumber: SANDBOX_ECR_REG_NUMBER,
    FiscalDocumentNumber: documentNumber,
    FiscalDocumentAttribute: attribute,
  };
}
