import styles from './bottom-bar.module.css';
import { navItems } from './nav-items';
import { NavLinkItem } from './nav-link-item';

/** Mobile navigation (under 768 px); hidden by CSS on wider screens. */
export function BottomBar() {
  return (
    <nav aria-label="Нижнее меню" className={styles.bar}>
      {navItems.map((item) => (
        <NavLinkItem
          key={item.label}
          item={item}
          className={styles.item}
          activeClassName={styles.active}
        />
      ))}
    </nav>
  );
}
