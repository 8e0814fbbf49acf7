import { COPYRIGHT_YEAR } from '@portal/contracts/constants';
import { runtimeConfig } from '@/config/runtime-config';
import styles from './legal-footer.module.css';

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
