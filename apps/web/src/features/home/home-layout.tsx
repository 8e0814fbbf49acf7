import type { ReactNode } from 'react';
import { PageHeader } from '@/shared/ui/page-header';
import styles from './home-layout.module.css';

type HomeLayoutProps = {
  userCard: ReactNode;
  /** The security checkup's line, shown only while something is missing. */
  checkup: ReactNode;
  wallet: ReactNode;
  promo: ReactNode;
  services: ReactNode;
  catalogue: ReactNode;
};

/**
 * The arrangement of the home page. The pieces come from their own features (the app layer puts
 * them in), so this feature owns only their order: who, money, what they have, what they could have.
 */
export function HomeLayout({
  userCard,
  checkup,
  wallet,
  promo,
  services,
  catalogue,
}: HomeLayoutProps) {
  return (
    <>
      <PageHeader title="Главная" />
      <div className={styles.grid}>
        {userCard}
        {checkup}
        {wallet}
        {services}
        {promo}
        {catalogue}
      </div>
    </>
  );
}
