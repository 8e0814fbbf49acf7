import { EMAIL_NOT_FOUND } from '@portal/contracts/messages';
import { useReducer, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { selectUser, setRequiresTwoFactor } from '@/features/auth';
import { Button } from '@/shared/ui/button';
import { lazyModal } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';
import { postDisableTwoFactor } from './api/disable-two-factor';
import { postEnableTwoFactor } from './api/enable-two-factor';
import { postRenewRecoveryCodes } from './api/renew-recovery-codes';
import { useTwoFactorStatusQuery } from './api/two-factor-api';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import styles from './security.module.css';
import {
  connectOpened,
  connectSettled,
  connectStarted,
  dialogClosed,
  dialogGone,
  dialogOpened,
  initialTwoFactorSetupState,
  recoveryCodesReceived,
  recoveryCodesSaved,
  twoFactorSetupFlow,
} from './two-factor-setup-flow';
import {
  recoveryCodesRenewed,
  selectTwoFactor,
  twoFactorConnected,
  twoFactorDisconnected,
} from './two-factor-slice';
import { useProofThenRetry } from './use-proof-then-retry';

// The dialogs with a form (react-hook-form with them) load when first opened, not with /profile.
const TwoFactorConnectDialog = lazyModal(() =>
  import('./two-factor-connect-dialog').then((module) => ({
    default: module.TwoFactorConnectDialog,
  })),
);
const TwoFactorCodeDialog = lazyModal(() =>
  import('./two-factor-code-dialog').then((module) => ({ default: module.TwoFactorCodeDialog })),
);

const STATUS_TEXT = {
  connected: 'Подключено',
  unconnected: 'Не подключено',
  unavailable: 'Недоступно',
} as const;

/**
 * The authenticator line of the profile's security block: connect → the QR code and a code →
 * connected, with the recovery codes shown once; disable through a confirmation and a code; renew
 * the recovery codes with a code.
 */
export function TwoFactorSetting() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const { status, recoveryCodesLeft: codesKnownHere } = useAppSelector(selectTwoFactor);
  const [flow, flowDispatch] = useReducer(twoFactorSetupFlow.reducer, initialTwoFactorSetupState);
  const actionsRef = useRef<HTMLDivElement>(null);
  // Without a fresh proof of the owner the connect dialog opens on the proof step, then asks for
  // the key again; any other refusal is a toast, and no dialog opens.
  const keyProof = useProofThenRetry((failure) => notify.error(failure.text));
  const isConnected = status === 'connected';

  // The count of recovery codes left: this tab's own (connected or renewed here), else asked.
  const statusQuery = useTwoFactorStatusQuery(undefined, {
    skip: !isConnected || codesKnownHere !== null,
  });
  const asked = statusQuery.currentData;
  const recoveryCodesLeft = codesKnownHere ?? (asked?.isEnabled ? asked.recoveryCodesLeft : null);

  async function connect() {
    if (flow.isStarting) return;
    // The authenticator is labelled with the account's address.
    if (!user?.email) {
      notify.error(EMAIL_NOT_FOUND);
      return;
    }
    flowDispatch(connectStarted());
    // The dialog's code comes while the key is fetched; a failure shows when the dialog opens.
    TwoFactorConnectDialog.preload().catch(() => {});
    await keyProof.attempt(async () => flowDispatch(connectOpened(await postEnableTwoFactor())));
    flowDispatch(connectSettled());
  }

  function closeConnect() {
    keyProof.reset();
    flowDispatch(dialogClosed());
  }

  return (
    <div className={styles.setting} data-testid="two-factor">
      <div className={styles.settingText}>
        <span className={styles.settingTitle}>Google Authenticator</span>
        <span className={styles.settingStatus} data-connected={isConnected || undefined}>
          {STATUS_TEXT[status]}
        </span>
        {isConnected && recoveryCodesLeft !== null ? (
          <span className={styles.settingStatus}>
            Резервных кодов осталось: {recoveryCodesLeft}
          </span>
        ) : null}
      </div>
      <div className={styles.actions} ref={actionsRef}>
        {isConnected ? (
          <>
            <Button
              variant="ghost"
              size="sm"
              data-checkup-target="recovery-codes"
              onClick={() => flowDispatch(dialogOpened('renew'))}
            >
              Новые резервные коды
            </Button>
            <Button
              variant="danger"
              size="sm"
              onClick={() => flowDispatch(dialogOpened('disable'))}
            >
              Отключить
            </Button>
          </>
        ) : (
          // Not disabled while the key is fetched: a disabled button drops the keyboard focus, and
          // the dialog could not give it back on closing. Clicks in the meantime are ignored.
          <Button
            size="sm"
            disabled={status === 'unavailable'}
            aria-disabled={flow.isStarting || undefined}
            aria-busy={flow.isStarting}
            data-checkup-target="two-factor-connect"
            onClick={() => void connect()}
          >
            Подключить
          </Button>
        )}
      </div>

      <TwoFactorConnectDialog
        isOpen={flow.dialog === 'connect' || keyProof.isProving}
        enrollment={flow.enrollment}
        onProvenForKey={keyProof.onProven}
        onClose={closeConnect}
        onClosed={() => flowDispatch(dialogGone())}
        onConnected={(codes) => {
          dispatch(twoFactorConnected({ recoveryCodes: codes.length }));
          flowDispatch(recoveryCodesReceived(codes));
        }}
      />
      <TwoFactorCodeDialog
        isOpen={flow.dialog === 'disable'}
        title="Отключить Google Authenticator?"
        description="Вход снова будет только по паролю. Для подтверждения введите код из приложения или один из резервных кодов."
        submitLabel="Отключить"
        isDestructive
        onClose={() => flowDispatch(dialogClosed())}
        onClosed={() => flowDispatch(dialogGone())}
        onConfirm={async (code) => {
          const answer = await postDisableTwoFactor(code);
          dispatch(setRequiresTwoFactor(false));
          dispatch(twoFactorDisconnected());
          notify.success(answer.message);
          flowDispatch(dialogClosed());
        }}
      />
      <TwoFactorCodeDialog
        isOpen={flow.dialog === 'renew'}
        title="Новые резервные коды"
        description="Прежние резервные коды перестанут действовать. Для подтверждения введите код из приложения или один из резервных кодов."
        submitLabel="Получить новые коды"
        onClose={() => flowDispatch(dialogClosed())}
        onClosed={() => flowDispatch(dialogGone())}
        onConfirm={async (code) => {
          const answer = await postRenewRecoveryCodes(code);
          dispatch(recoveryCodesRenewed(answer.recoveryCodes.length));
          notify.success(answer.message);
          flowDispatch(recoveryCodesReceived(answer.recoveryCodes));
        }}
      />
      <RecoveryCodesDialog
        codes={flow.shownCodes}
        onClose={() => flowDispatch(recoveryCodesSaved())}
        // It follows the connect or renew dialog: back to this line's first button.
        returnFocusTo={() => actionsRef.current?.querySelector('button')}
      />
    </div>
  );
}
