import { HomeBrandLink } from './home-brand-link';
import { LegalFooter } from './legal-footer';
import { NavLinks } from './nav-links';
import styles from './sidebar.module.css';
import { ThemeSwitch } from './theme-switch';

/** Desktop navigation (768 px and wider); hidden by CSS below that. */
export function Sidebar() {
  return (
    <aside className={styles.sidebar} aria-label="Боковая панель">
      <HomeBrandLink className={styles.brand} />
      <NavLinks
        label="Основное меню"
        className={styles.nav}
        linkClassName={styles.link}
        activeClassName={styles.active}
        isExternalMarkShown
      />
      <div className={styles.bottom}>
        <ThemeSwitch />
        <div className={styles.legal}>
          <LegalFooter />
        </div>
      </div>
    </aside>
  );
}
