import { STAFF_ROLE_NAMES, type StaffAuditRow } from '@portal/contracts/staff';
import { Link } from 'react-router';
import { formatMoment } from './format';
import styles from './staff.module.css';
import { staffAccountHref } from './staff-nav';

/** Rows of the staff's audit: who did what to which account, why. */
export function AuditTable({ rows }: { rows: StaffAuditRow[] }) {
  if (rows.length === 0) return <p className={styles.muted}>Нет записей</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Когда</th>
            <th scope="col">Кто</th>
            <th scope="col">Что</th>
            <th scope="col">Аккаунт</th>
            <th scope="col">Причина</th>
            <th scope="col">IP</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.seq}>
              <td>{formatMoment(row.at)}</td>
              <td>
                {row.actor}
                {row.role ? ` (${STAFF_ROLE_NAMES[row.role]})` : ' (командная строка)'}
              </td>
              <td>{row.kind}</td>
              <td>
                {row.accountId ? (
                  <Link className={styles.link} to={staffAccountHref(row.accountId)}>
                    {row.accountId}
                  </Link>
                ) : (
                  '—'
                )}
              </td>
              <td>{row.reason ?? '—'}</td>
              <td>{row.ip ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
