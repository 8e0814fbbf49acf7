import type { ReactNode } from 'react';
import styles from './page-header.module.css';

/** The title row every page starts with. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className={styles.header}>
      <h1 className={styles.title}>{title}</h1>
      {children}
    </header>
  );
}
