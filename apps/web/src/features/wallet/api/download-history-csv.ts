import type { PaymentHistoryExportQuery } from '@portal/contracts/wallet';
import { getFile } from '@/shared/api/get-file';
import { api } from '@/shared/api/http';
import { saveFile } from '@/shared/lib/save-file';

/**
 * The whole history with the filters on screen as a CSV file, dated in the browser's time zone
 * (`GET /payments/payments/user/csv`), saved to the browser's downloads.
 */
export async function downloadHistoryCsv(
  filter: Omit<PaymentHistoryExportQuery, 'timeZone'>,
): Promise<void> {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { file, fileName } = await getFile(api, '/payments/payments/user/csv', {
    params: { ...filter, timeZone },
    fallbackName: 'history.csv',
  });
  saveFile(file, fileName);
}
