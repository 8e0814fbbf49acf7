import { type Theme, useTheme } from '@/shared/ui/theme';
import { MoonIcon, SunIcon } from '@/shared/ui/theme-icons';
import styles from './theme-picker.module.css';

const options: { value: Theme; label: string; Icon: typeof SunIcon }[] = [
  { value: 'light', label: 'Светлая', Icon: SunIcon },
  { value: 'dark', label: 'Тёмная', Icon: MoonIcon },
];

/** The theme panel of the mobile burger menu: two explicit choices, easier to hit by thumb. */
export function ThemePicker() {
  const [theme, setTheme] = useTheme();
  return (
    <fieldset className={styles.picker}>
      <legend className={styles.legend}>Тема оформления</legend>
      <div className={styles.options}>
        {options.map(({ value, label, Icon }) => (
          <button
            key={value}
            type="button"
            aria-pressed={theme === value}
            className={styles.option}
            onClick={() => setTheme(value)}
          >
            <Icon />
            {label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
