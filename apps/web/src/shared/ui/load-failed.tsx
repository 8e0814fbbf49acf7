import { LOAD_FAILED, RETRY } from '@portal/contracts/messages';
import { failureOf } from '@/shared/api/api-failure';
import { Button } from './button';
import styles from './load-failed.module.css';

type LoadFailedProps = {
  /** «Повторить»: loads again. */
  onRetry: () => void;
  /** A whole page (centred in the page's area) rather than a part of one (a card, a list). */
  isPage?: boolean;
  /**
   * Why the data did not come, when it was a read of server data: its text, «Нет соединения с
   * сервером…» when no answer came, else the server's message. Without it (code that could not
   * load), «Нет соединения».
   */
  error?: unknown;
};

/**
 * What stands in place of a part of the screen that could not load, its code (`lazy-part.tsx`) or
 * its data (a query that failed): why, with «Повторить».
 * Never a blank area, never a toast as well.
 */
export function LoadFailed({ onRetry, isPage, error }: LoadFailedProps) {
  const failure = error === undefined ? null : failureOf(error);
  return (
    <div className={`${styles.failed} ${isPage ? styles.page : ''}`} role="alert">
      <p className={styles.title}>{failure ? failure.text : LOAD_FAILED}</p>
      <Button onClick={onRetry}>{RETRY}</Button>
    </div>
  );
}
