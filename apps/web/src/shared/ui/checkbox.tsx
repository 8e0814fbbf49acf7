import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';
import styles from './checkbox.module.css';
import { CheckIcon } from './icons';

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  /** The label; with `link`, the words before the link. */
  children: ReactNode;
  /**
   * A link inside the label's sentence (a policy): `children`, the link, then `after`. Only the
   * link opens it; every other word ticks the box.
   */
  link?: { href: string; text: string; after?: ReactNode };
  error?: string;
  ref?: Ref<HTMLInputElement>;
};

/** A native checkbox drawn in the portal's style; works with react-hook-form's `register`. */
export function Checkbox({ children, link, error, className, ref, ...inputProps }: CheckboxProps) {
  const id = useId();
  const textId = `${id}-text`;
  const control = (
    <>
      <input
        ref={ref}
        id={id}
        type="checkbox"
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-labelledby={link ? textId : undefined}
        {...inputProps}
      />
      <span className={styles.box} aria-hidden="true">
        <CheckIcon width="14" height="14" strokeWidth="3" />
      </span>
    </>
  );
  return (
    <div className={[styles.wrapper, className ?? ''].filter(Boolean).join(' ')}>
      {link ? (
        // The link stands beside the label's words, not inside a <label>: a phone moves a tap
        // that touches a link onto it when the link is inside the tapped element, so a finger on
        // the words around it opened the policy instead of ticking the box.
        <div className={styles.checkbox}>
          <label htmlFor={id} className={styles.control}>
            {control}
          </label>
          <span id={textId} className={styles.label}>
            <label htmlFor={id}>{children} </label>
            <a href={link.href} target="_blank" rel="noreferrer">
              {link.text}
            </a>
            {link.after && <label htmlFor={id}> {link.after}</label>}
          </span>
        </div>
      ) : (
        <label htmlFor={id} className={styles.checkbox}>
          {control}
          <span className={styles.label}>{children}</span>
        </label>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
