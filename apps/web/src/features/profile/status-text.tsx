import styles from './profile.module.css';
import type { TwoFactorMethodStatus } from './two-factor-statuses';

const LABELS: Record<TwoFactorMethodStatus, string> = {
  connected: 'Подключено',
  unconnected: 'Не подключено',
  unavailable: 'Недоступно',
};

/** A 2FA method's state in words: connected, unconnected or unavailable. */
export function StatusText({ status, testId }: { status: TwoFactorMethodStatus; testId?: string }) {
  return (
    <span className={styles.status} data-status={status} data-testid={testId}>
      {LABELS[status]}
    </span>
  );
}
