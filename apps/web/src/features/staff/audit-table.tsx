import { STAFF_ROLE_NAMES, type StaffAuditRow } from '@portal/contracts/staff';
import { Link } from 'react-router';
import { formatMoment } from './format';
import styles from './staff.module.css';
import { staffAccountHref } from './staff-nav';
import { StaffTable } from './staff-table';

/** Rows of the staff's audit: who did what to which account, why. */
export function AuditTable({ rows }: { rows: StaffAuditRow[] }) {
  return (
    <StaffTable
      head={['Когда', 'Кто', 'Что', 'Аккаунт', 'Причина', 'IP']}
      rows={rows.map((row) => ({
        key: row.seq,
        cells: [
          formatMoment(row.at),
          `${row.actor}${row.role ? ` (${STAFF_ROLE_NAMES[row.role]})` : ' (командная строка)'}`,
          row.kind,
          row.accountId ? (
            <Link key="account" className={styles.link} to={staffAccountHref(row.accountId)}>
              {row.accountId}
            </Link>
          ) : (
            '—'
          ),
          row.reason ?? '—',
          row.ip ?? '—',
        ],
      }))}
    />
  );
}
