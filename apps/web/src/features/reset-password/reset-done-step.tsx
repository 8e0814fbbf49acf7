import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import heading from '@/shared/ui/form-heading.module.css';
import { CheckIcon } from '@/shared/ui/icons';
import styles from './reset-password.module.css';

/** Step 3: the success mark, 'Пароль обновлен', and 'Готово' to /auth. */
export function ResetDoneStep() {
  const navigate = useNavigate();
  return (
    <div className={`${blocks.stack} ${styles.done}`}>
      <span className={styles.mark} role="img" aria-label="Готово">
        <CheckIcon width="36" height="36" strokeWidth="2.5" />
      </span>
      <h1 className={heading.title}>Пароль обновлен</h1>
      <Button isFullWidth onClick={() => void navigate(paths.auth.getHref())}>
        Готово
      </Button>
    </div>
  );
}
