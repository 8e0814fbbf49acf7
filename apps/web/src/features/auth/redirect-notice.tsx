import { BrandLogo } from '@/shared/ui/brand-logo';
import styles from './redirect-notice.module.css';

/** The full-screen 'redirecting to' notice, shown for the 500 ms before leaving for a site. */
export function RedirectNotice({ host }: { host: string }) {
  return (
    <div className={styles.overlay} role="status" aria-live="polite">
      <div className={styles.content}>
        <BrandLogo />
        <span className={styles.spinner} aria-hidden="true" />
        <p className={styles.title}>Перенаправляем вас на</p>
        <p className={styles.host}>{host}</p>
      </div>
    </div>
  );
}
