import type { PaymentHistoryExportQuery } from '@portal/contracts/wallet';
import { api } from '@/shared/api/http';
import { attachmentName, saveFile } from '@/shared/lib/save-file';

/**
 * The whole history with the filters on screen as a CSV file, dated in the browser's time zone
 * (`GET /payments/payments/user/csv`), saved to the browser's downloads.
 */
export async function downloadHistoryCsv(
  filter: Omit<PaymentHistoryExportQuery, 'timeZone'>,
): Promise<void> {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const response = await api.get<Blob>('/payments/payments/user/csv', {
    params: { ...filter, timeZone },
    responseType: 'blob',
    requiresAuth: true,
  });
  saveFile(response.data, attachmentName(response.headers['content-disposition'], 'history.csv'));
}
