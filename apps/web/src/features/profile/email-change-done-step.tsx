import { EMAIL_UPDATED } from '@portal/contracts/messages';
import { Button } from '@/shared/ui/button';
import { CheckIcon } from '@/shared/ui/icons';
import styles from './profile.module.css';

/** The mark, 'Почта обновлена', and 'Готово', which closes the dialog. */
export function EmailChangeDoneStep({ onDone }: { onDone: () => void }) {
  return (
    <div className={styles.done}>
      <span className={styles.doneMark}>
        <CheckIcon width={28} height={28} />
      </span>
      <p className={styles.doneTitle}>{EMAIL_UPDATED}</p>
      <Button onClick={onDone}>Готово</Button>
    </div>
  );
}
