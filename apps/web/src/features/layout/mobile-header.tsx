import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { CloseIcon, MenuIcon } from '@/shared/ui/icons';
import { HomeBrandLink } from './home-brand-link';
import iconButton from './icon-button.module.css';
import { LegalFooter } from './legal-footer';
import styles from './mobile-header.module.css';
import { ThemePicker } from './theme-picker';

/** Mobile top bar (under 768 px) with the burger that opens the theme panel. */
export function MobileHeader() {
  const [isOpen, setIsOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  // Navigating elsewhere closes the panel.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not an input.
  useEffect(() => setIsOpen(false), [pathname]);

  useEffect(() => {
    if (!isOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setIsOpen(false);
    };
    const closeOnOutsideClick = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    document.addEventListener('pointerdown', closeOnOutsideClick);
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      document.removeEventListener('pointerdown', closeOnOutsideClick);
    };
  }, [isOpen]);

  return (
    <header ref={headerRef} className={styles.header}>
      <HomeBrandLink />
      <button
        type="button"
        className={iconButton.iconButton}
        aria-label={isOpen ? 'Закрыть меню' : 'Открыть меню'}
        aria-expanded={isOpen}
        aria-controls="mobile-menu-panel"
        onClick={() => setIsOpen((open) => !open)}
      >
        {isOpen ? <CloseIcon /> : <MenuIcon />}
      </button>
      {isOpen ? (
        <div id="mobile-menu-panel" className={styles.panel}>
          <ThemePicker />
          <LegalFooter />
        </div>
      ) : null}
    </header>
  );
}
