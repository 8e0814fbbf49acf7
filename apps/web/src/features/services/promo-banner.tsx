import { runtimeConfig } from '@/config/runtime-config';
import { Button } from '@/shared/ui/button';
import styles from './promo-banner.module.css';
import { useSiblingLink } from './use-sibling-link';

/** The home page's promo banner for a free 24-hour hosting. */
export function PromoBanner() {
  const sibling = useSiblingLink();
  return (
    <section className={styles.banner} aria-labelledby="promo-title">
      <div className={styles.text}>
        <p className={styles.kicker}>Бесплатно</p>
        <h2 id="promo-title" className={styles.title}>
          Игровой сервер на 24 часа
        </h2>
        <p className={styles.lead}>
          Запустите свой сервер и проверьте хостинг в деле: первые сутки без оплаты.
        </p>
        <Button
          className={styles.button}
          onClick={() => void sibling.open(runtimeConfig.hostingUrl)}
          disabled={sibling.openingLink !== null}
        >
          Попробовать бесплатно
        </Button>
      </div>
      <div className={styles.art} aria-hidden="true">
        <span className={styles.hours}>24</span>
        <span className={styles.hoursLabel}>часа</span>
      </div>
    </section>
  );
}
