import type { HTMLAttributes } from 'react';
import styles from './brand-card.module.css';
import { Card } from './card';

/** The card of a public page (sign-in, password reset): roomier, with the brand stripe on top. */
export function BrandCard({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return <Card className={[styles.card, className ?? ''].filter(Boolean).join(' ')} {...props} />;
}
