import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import { EyeIcon, EyeOffIcon } from './icons';
import styles from './text-field.module.css';

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: ReactNode;
  /** The message under the field; its presence also marks the input invalid. */
  error?: string;
  /** A quiet line under the field when there is no error. */
  hint?: ReactNode;
  /** Content at the right end of the label row (e.g. a "forgot password" link). */
  labelAside?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A labelled input with its error message. `type="password"` adds a show/hide toggle, so every
 * password field of the portal behaves the same. Works with react-hook-form's `register`.
 */
export function TextField({
  label,
  error,
  hint,
  labelAside,
  type = 'text',
  className,
  ref,
  ...inputProps
}: TextFieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const [isRevealed, setIsRevealed] = useState(false);
  const isPassword = type === 'password';
  const message = error ?? hint;

  return (
    <div className={[styles.field, className ?? ''].filter(Boolean).join(' ')}>
      <div className={styles.labelRow}>
        <label htmlFor={id} className={styles.label}>
          {label}
        </label>
        {labelAside}
      </div>
      <div className={styles.control}>
        <input
          id={id}
          ref={ref}
          type={isPassword && isRevealed ? 'text' : type}
          className={[styles.input, isPassword ? styles.withToggle : ''].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          aria-describedby={message ? messageId : undefined}
          {...inputProps}
        />
        {isPassword && (
          <button
            type="button"
            className={styles.toggle}
            aria-label={isRevealed ? 'Скрыть пароль' : 'Показать пароль'}
            aria-pressed={isRevealed}
            aria-controls={id}
            onClick={() => setIsRevealed((value) => !value)}
          >
            {isRevealed ? <EyeOffIcon /> : <EyeIcon />}
          </button>
        )}
      </div>
      {message && (
        <p
          id={messageId}
          className={error ? styles.error : styles.hint}
          role={error ? 'alert' : undefined}
        >
          {message}
        </p>
      )}
    </div>
  );
}
