import { useReducer } from 'react';
import { Button } from '@/shared/ui/button';
import { lazyModal } from '@/shared/ui/modal';
import { initialPasswordChangeState, opened, passwordChangeFlow } from './password-change-flow';
import styles from './security.module.css';

// The dialog (its form, react-hook-form with it) loads when first opened, not with /profile.
const PasswordChangeDialog = lazyModal(() =>
  import('./password-change-dialog').then((module) => ({ default: module.PasswordChangeDialog })),
);

/** The password line of the profile's security block; its dialog: ./password-change-dialog.tsx. */
export function PasswordChangeEntry() {
  const [flow, dispatch] = useReducer(passwordChangeFlow.reducer, initialPasswordChangeState);
  return (
    <div className={styles.setting} data-testid="password-change">
      <div className={styles.settingText}>
        <span className={styles.settingTitle}>Пароль</span>
        <span className={styles.settingStatus}>
          Для смены понадобится текущий пароль и код подтверждения
        </span>
      </div>
      <div className={styles.actions}>
        <Button
          variant="secondary"
          size="sm"
          data-checkup-target="password-change"
          onClick={() => dispatch(opened())}
        >
          Сменить пароль
        </Button>
      </div>

      <PasswordChangeDialog isOpen={flow.step !== 'closed'} flow={flow} dispatch={dispatch} />
    </div>
  );
}
