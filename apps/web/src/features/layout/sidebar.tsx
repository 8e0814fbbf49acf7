import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { BrandLogo } from '@/shared/ui/brand-logo';
import { LegalFooter } from './legal-footer';
import { navItems } from './nav-items';
import { NavLinkItem } from './nav-link-item';
import styles from './sidebar.module.css';
import { ThemeSwitch } from './theme-switch';

/** Desktop navigation (768 px and wider); hidden by CSS below that. */
export function Sidebar() {
  return (
    <aside className={styles.sidebar} aria-label="Боковая панель">
      {/* Named by the brand it shows: a screen reader hears what a sighted user reads. */}
      <Link to={paths.home.getHref()} className={styles.brand}>
        <BrandLogo />
      </Link>
      <nav aria-label="Основное меню" className={styles.nav}>
        {navItems.map((item) => (
          <NavLinkItem
            key={item.label}
            item={item}
            className={styles.link}
            activeClassName={styles.active}
            isExternalMarkShown
          />
        ))}
      </nav>
      <div className={styles.bottom}>
        <ThemeSwitch />
        <div className={styles.legal}>
          <LegalFooter />
        </div>
      </div>
    </aside>
  );
}
