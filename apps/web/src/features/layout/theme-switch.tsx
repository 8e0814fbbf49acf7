import { useTheme } from '@/shared/ui/theme';
import { MoonIcon } from '@/shared/ui/theme-icons';
import styles from './theme-switch.module.css';

/** The sidebar's dark-theme switch: on = dark, off = light; the choice is stored. */
export function ThemeSwitch() {
  const [theme, setTheme] = useTheme();
  const isDark = theme === 'dark';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={isDark}
      className={styles.row}
      onClick={() => setTheme(isDark ? 'light' : 'dark')}
    >
      <MoonIcon />
      <span className={styles.label}>Тёмная тема</span>
      <span className={styles.track} aria-hidden="true">
        <span className={styles.thumb} />
      </span>
    </button>
  );
}
