import { STAFF_API } from '@portal/contracts/staff';
import { toApiFailure } from '@/shared/api/api-failure';
import { getFile } from '@/shared/api/get-file';
import { msApi } from '@/shared/api/http';
import { auditParams, type StaffAuditFilters } from './staff-api';
import { withStaffProof } from './staff-proof-gate';

/** What a CSV download gives: the file with its name, or the refusal. */
type CsvAnswer = {
  data?: { file: Blob; fileName: string };
  error?: ReturnType<typeof toApiFailure>;
};

/**
 * «Скачать CSV»: every row of the audit under the page's filters (`GET …/audit.csv`), with the
 * session's token, which a plain link could not carry; asked for a proof as any staff call.
 */
export function downloadAuditCsv(filters: StaffAuditFilters): Promise<CsvAnswer> {
  return withStaffProof(async () => {
    try {
      return {
        data: await getFile(msApi, `${STAFF_API}/audit.csv`, {
          params: auditParams(filters),
          fallbackName: 'audit.csv',
        }),
      };
    } catch (error) {
      return { error: toApiFailure(error) };
    }
  });
}
