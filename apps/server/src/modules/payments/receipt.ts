import { TOP_UP_DESCRIPTION } from '@portal/contracts/constants';
import type { Receipt } from '../../adapters/tbank/client.js';
import type { Config } from '../../config.js';

export type ReceiptConfig = Pick<
  Config,
  | 'RECEIPT_TAXATION'
  | 'RECEIPT_VAT'
  | 'RECEIPT_PAYMENT_METHOD'
  | 'RECEIPT_PAYMENT_OBJECT'
  | 'RECEIPT_FFD_VERSION'
>;

/**
 * The 54-FZ receipt of a top-up (with Init) or of its refund (with Cancel): one line
 * «Пополнение баланса» whose amount is the whole operation, so the receipt's total equals the
 * Amount of the request, as T-Bank requires. Tax settings come from the configuration
 * (docs/decisions/0032-receipts.md).
 */
export function walletReceipt(
  config: ReceiptConfig,
  email: string,
  amountKopecks: number,
): Receipt {
  const isFfd12 = config.RECEIPT_FFD_VERSION === '1.2';
  return {
    ...(isFfd12 ? { FfdVersion: '1.2' as const } : {}),
    Email: email,
    Taxation: config.RECEIPT_TAXATION,
    Items: [
      {
        Name: TOP_UP_DESCRIPTION,
        Price: amountKopecks,
        Quantity: 1,
        Amount: amountKopecks,
        Tax: config.RECEIPT_VAT,
        PaymentMethod: config.RECEIPT_PAYMENT_METHOD,
        PaymentObject: config.RECEIPT_PAYMENT_OBJECT,
        ...(isFfd12 ? { MeasurementUnit: 'шт' } : {}),
      },
    ],
  };
}
