import type { HTMLAttributes, ReactNode } from 'react';
import styles from './card.module.css';

export function Card({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return (
    <section className={[styles.card, className ?? ''].filter(Boolean).join(' ')} {...props} />
  );
}

/**
 * A card's title row: its h2, which the card's `aria-labelledby` names by `titleId`, and what goes
 * with the title (a count beside it; a link, which its own class pushes to the far end).
 */
export function CardHead({
  titleId,
  title,
  children,
}: {
  titleId: string;
  title: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className={styles.head}>
      <h2 id={titleId} className={styles.title}>
        {title}
      </h2>
      {children}
    </header>
  );
}
