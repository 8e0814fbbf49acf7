import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeftIcon } from './icons';
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

/**
 * The way back from a page opened from another one (the header's right side). `isHiddenOnPhone`
 * for a page the phone's bottom bar already leads back from.
 */
export function PageBackLink({
  to,
  children,
  isHiddenOnPhone = false,
}: {
  to: string;
  children: ReactNode;
  isHiddenOnPhone?: boolean;
}) {
  return (
    <Link to={to} className={styles.back} data-hidden-on-phone={isHiddenOnPhone || undefined}>
      <ArrowLeftIcon width={16} height={16} />
      {children}
    </Link>
  );
}
