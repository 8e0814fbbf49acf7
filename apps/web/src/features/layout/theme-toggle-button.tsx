import { useTheme } from '@/shared/ui/theme';
import { MoonIcon, SunIcon } from '@/shared/ui/theme-icons';
import styles from './icon-button.module.css';

/** A compact theme toggle for the pages without a sidebar (sign-in, password recovery). */
export function ThemeToggleButton() {
  const [theme, setTheme] = useTheme();
  const isDark = theme === 'dark';
  return (
    <button
      type="button"
      className={styles.iconButton}
      aria-label={isDark ? 'Включить светлую тему' : 'Включить тёмную тему'}
      onClick={() => setTheme(isDark ? 'light' : 'dark')}
    >
      {isDark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
