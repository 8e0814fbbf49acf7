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

// Dark is the brand's theme until the person picks one, whatever the system prefers.
function currentTheme(): Theme {
  return storedTheme() ?? DEFAULT_THEME;
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
 * Puts the theme on <html> before the first render (no flash of the wrong theme) and follows a
 * pick made in another tab.
 */
export function initTheme(): void {
  applyTheme();
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
