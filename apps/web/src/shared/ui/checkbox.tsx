import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import styles from './checkbox.module.css';
import { CheckIcon } from './icons';

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  /** The label; may hold links. */
  children: ReactNode;
  error?: string;
  ref?: Ref<HTMLInputElement>;
};

/** A native checkbox drawn in the portal's style; works with react-hook-form's `register`. */
export function Checkbox({ children, error, className, ref, ...inputProps }: CheckboxProps) {
  return (
    <div className={[styles.wrapper, className ?? ''].filter(Boolean).join(' ')}>
      <label className={styles.checkbox}>
        <input
          ref={ref}
          type="checkbox"
          className={styles.input}
          aria-invalid={error ? true : undefined}
          {...inputProps}
        />
        <span className={styles.box} aria-hidden="true">
          <CheckIcon width="14" height="14" strokeWidth="3" />
        </span>
        <span className={styles.label}>{children}</span>
      </label>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
