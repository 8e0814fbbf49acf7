import type { Key, ReactNode } from 'react';
import styles from './staff.module.css';

export type StaffTableRow = { key: Key; cells: ReactNode[] };

/**
 * One of the desk's lists as a table, a cell per column head, scrolling sideways in its wrapper on
 * a narrow screen; «Нет записей» when it is empty. An empty head is the column of buttons, named
 * for screen readers only (`actionsLabel`).
 */
export function StaffTable({
  head,
  rows,
  actionsLabel = 'Действие',
}: {
  head: string[];
  rows: StaffTableRow[];
  actionsLabel?: string;
}) {
  if (rows.length === 0) return <p className={styles.muted}>Нет записей</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            {head.map((label, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed.
              <th key={index} scope="col">
                {label || <span className="visually-hidden">{actionsLabel}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed.
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
