import type { ReactNode } from 'react';
import styles from './empty-state.module.css';

/** What a list shows when it has nothing yet: an icon, a title and a line on what will appear. */
export function EmptyState({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.empty}>
      <span className={styles.icon}>{icon}</span>
      <p className={styles.title}>{title}</p>
      <p className={styles.text}>{children}</p>
    </div>
  );
}
