import { Outlet } from 'react-router';
import { BrandLogo } from '@/shared/ui/brand-logo';
import { LegalFooter } from './legal-footer';
import styles from './public-frame.module.css';
import { ThemeToggleButton } from './theme-toggle-button';

/** The frame of the pages a visitor sees before signing in (/auth, /reset-password). */
export function PublicFrame() {
  return (
    <div className={styles.frame}>
      <header className={styles.header}>
        <BrandLogo />
        <ThemeToggleButton />
      </header>
      <main className={styles.content}>
        <Outlet />
      </main>
      <footer className={styles.footer}>
        <LegalFooter />
      </footer>
    </div>
  );
}
