import type { ReactNode } from 'react';
import { PageHeader } from '@/shared/ui/page-header';
import styles from './home-layout.module.css';

type HomeLayoutProps = {
  userCard: ReactNode;
  wallet: ReactNode;
  promo: ReactNode;
  services: ReactNode;
  catalogue: ReactNode;
};

/**
 * The arrangement of the home page. The pieces come from their own features (the app layer puts
 * them in), so this feature owns only their order: who, money, what they have, what they could have.
 */
export function HomeLayout({ userCard, wallet, promo, services, catalogue }: HomeLayoutProps) {
  return (
    <>
      <PageHeader title="Главная" />
      <div className={styles.grid}>
        {userCard}
        {wallet}
        {services}
        {promo}
        {catalogue}
      </div>
    </>
  );
}
