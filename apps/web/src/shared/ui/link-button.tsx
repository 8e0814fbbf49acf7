import type { ButtonHTMLAttributes } from 'react';
import styles from './link-button.module.css';

/** A secondary action drawn as accent text, centred under a form (resend a code, another way). */
export function LinkButton(props: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className'>) {
  return <button type="button" className={styles.linkButton} {...props} />;
}
