import { runtimeConfig } from '@/config/runtime-config';
import styles from './legal-footer.module.css';

// Spec §9 fixes the copyright year at 2025.
const COPYRIGHT_YEAR = 2025;

export function LegalFooter() {
  return (
    <div className={styles.footer}>
      <span>
        © {COPYRIGHT_YEAR} {runtimeConfig.brandName}
      </span>
      <a href={runtimeConfig.privacyUrl} target="_blank" rel="noopener noreferrer">
        Политика конфиденциальности
      </a>
    </div>
  );
}
