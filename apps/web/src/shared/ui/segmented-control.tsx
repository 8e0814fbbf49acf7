import { useId } from 'react';
import styles from './segmented-control.module.css';

type SegmentedOption<T extends string> = { value: T; label: string };

type SegmentedControlProps<T extends string> = {
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Names the group for screen readers. */
  label: string;
  className?: string;
};

/**
 * A row of mutually exclusive choices (filters, views) drawn as a segmented bar. Real radio
 * buttons underneath, so the keyboard works as everywhere else (one tab stop, arrow keys).
 * Unlike Tabs it owns no panel, so several can steer one list.
 */
export function SegmentedControl<T extends string>({
  options,
  value,
  onChange,
  label,
  className,
}: SegmentedControlProps<T>) {
  const name = useId();
  return (
    <fieldset className={[styles.group, className ?? ''].filter(Boolean).join(' ')}>
      <legend className="visually-hidden">{label}</legend>
      {options.map((option) => (
        <label key={option.value} className={styles.option}>
          <input
            type="radio"
            className={styles.input}
            name={name}
            value={option.value}
            checked={option.value === value}
            onChange={() => onChange(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
