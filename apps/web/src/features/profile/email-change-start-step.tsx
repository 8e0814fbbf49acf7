import { Button } from '@/shared/ui/button';
import styles from './profile.module.css';

/** The e-mail change's first step: a code to the current address, sent on request. */
export function EmailChangeStartStep({
  currentEmail,
  isBusy,
  onSendCode,
}: {
  currentEmail: string;
  isBusy: boolean;
  onSendCode: () => void;
}) {
  return (
    <div className={styles.form}>
      <p className={styles.lead}>
        Сначала подтвердим текущую почту <strong>{currentEmail}</strong>: отправим на неё код.
      </p>
      <Button disabled={isBusy} aria-busy={isBusy} onClick={onSendCode}>
        Отправить код
      </Button>
    </div>
  );
}
