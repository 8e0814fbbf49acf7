import { DEFAULT_THEME } from '@portal/contracts/constants';
import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

const THEME_KEY = 'theme';
const listeners = new Set<() => void>();

function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

// Dark is the brand's default: the system decides only when it states a preference.
function systemTheme(): Theme {
  if (typeof matchMedia !== 'function') return DEFAULT_THEME;
  if (matchMedia('(prefers-color-scheme: light)').matches) return 'light';
  if (matchMedia('(prefers-color-scheme: dark)').matches) return 'dark';
  return DEFAULT_THEME;
}

function currentTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

function applyTheme(): void {
  const theme = currentTheme();
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
  for (const listener of listeners) listener();
}

export function setTheme(theme: Theme): void {
  localStorage.setItem(THEME_KEY, theme);
  applyTheme();
}

/**
 * Puts the theme on <html> before the first render (no flash of the wrong theme) and follows the
 * system while the user has not chosen one.
 */
export function initTheme(): void {
  applyTheme();
  matchMedia('(prefers-color-scheme: light)').addEventListener('change', applyTheme);
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_KEY) applyTheme();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore<Theme>(subscribe, currentTheme, () => DEFAULT_THEME);
  return [theme, setTheme];
}
