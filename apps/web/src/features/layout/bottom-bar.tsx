import styles from './bottom-bar.module.css';
import { NavLinks } from './nav-links';

/** Mobile navigation (under 768 px); hidden by CSS on wider screens. */
export function BottomBar() {
  return (
    <NavLinks
      label="Нижнее меню"
      className={styles.bar}
      linkClassName={styles.item}
      activeClassName={styles.active}
    />
  );
}
