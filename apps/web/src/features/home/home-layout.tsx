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
 * The arrangement of spec §2 "Home". The pieces come from their own features (the app layer puts
 * them in), so this feature owns only where they sit: two columns on wide screens, one on phones.
 */
export function HomeLayout({ userCard, wallet, promo, services, catalogue }: HomeLayoutProps) {
  return (
    <>
      <PageHeader title="Главная" />
      <div className={styles.grid}>
        <div className={styles.user}>{userCard}</div>
        <div className={styles.wallet}>{wallet}</div>
        <div className={styles.promo}>{promo}</div>
        <div className={styles.services}>{services}</div>
        <div className={styles.catalogue}>{catalogue}</div>
      </div>
    </>
  );
}
