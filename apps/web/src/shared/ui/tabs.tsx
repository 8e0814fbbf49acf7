import { type CSSProperties, type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import styles from './tabs.module.css';

type TabItem<T extends string> = { value: T; label: string };

type TabsProps<T extends string> = {
  items: readonly TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Names the tab list for screen readers. */
  label: string;
  /** The panel of the selected tab. */
  children: ReactNode;
  className?: string;
};

/**
 * Segmented tabs with the WAI-ARIA tabs pattern: one tab stop, arrow keys move between tabs and
 * select them, the panel is labelled by its tab.
 */
export function Tabs<T extends string>({
  items,
  value,
  onChange,
  label,
  children,
  className,
}: TabsProps<T>) {
  const baseId = useId();
  const tabRefs = useRef(new Map<T, HTMLButtonElement>());
  const tabId = (item: T) => `${baseId}-tab-${item}`;
  const panelId = `${baseId}-panel`;
  const selectedIndex = Math.max(
    0,
    items.findIndex((item) => item.value === value),
  );

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = {
      ArrowRight: selectedIndex + 1,
      ArrowLeft: selectedIndex - 1,
      Home: 0,
      End: items.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const item = items[(next + items.length) % items.length];
    if (!item) return;
    onChange(item.value);
    tabRefs.current.get(item.value)?.focus();
  }

  return (
    <div className={className}>
      <div
        role="tablist"
        aria-label={label}
        className={styles.list}
        style={{ '--tab-count': items.length, '--tab-index': selectedIndex } as CSSProperties}
        onKeyDown={onKeyDown}
      >
        <span className={styles.indicator} aria-hidden="true" />
        {items.map((item) => {
          const isSelected = item.value === value;
          return (
            <button
              key={item.value}
              ref={(node) => {
                if (node) tabRefs.current.set(item.value, node);
                else tabRefs.current.delete(item.value);
              }}
              id={tabId(item.value)}
              type="button"
              role="tab"
              aria-selected={isSelected}
              aria-controls={panelId}
              tabIndex={isSelected ? 0 : -1}
              className={styles.tab}
              onClick={() => onChange(item.value)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(value)} className={styles.panel}>
        {children}
      </div>
    </div>
  );
}
