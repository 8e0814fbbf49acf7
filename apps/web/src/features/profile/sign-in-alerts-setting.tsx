import type { User } from '@portal/contracts/auth';
import { useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { userMerged } from '@/features/auth';
import { toApiFailure } from '@/shared/api/api-failure';
import blocks from '@/shared/ui/blocks.module.css';
import { Checkbox } from '@/shared/ui/checkbox';
import { notify } from '@/shared/ui/toast';
import { putSignInAlerts } from './api/sign-in-alerts';

export const SIGN_IN_ALERTS_LABEL = 'Оповещения о входе с нового устройства на почту';

/**
 * The switch of the alert letter after a sign-in from a new device (on by default). The letter
 * carries «Это был не я»; Telegram notices come whatever it says, while Telegram is linked.
 */
export function SignInAlertsSetting({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const [isBusy, setIsBusy] = useState(false);

  async function change(byEmail: boolean) {
    setIsBusy(true);
    try {
      const answer = await putSignInAlerts(byEmail);
      dispatch(userMerged({ signInAlertsByEmail: answer.byEmail }));
      notify.success(answer.message);
    } catch (error) {
      notify.error(toApiFailure(error).text);
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <div className={blocks.settingRow} data-testid="sign-in-alerts-setting" id="sign-in-alerts">
      <Checkbox
        role="switch"
        data-checkup-target="sign-in-alerts"
        checked={user.signInAlertsByEmail}
        disabled={isBusy}
        aria-busy={isBusy}
        onChange={(event) => void change(event.currentTarget.checked)}
      >
        {SIGN_IN_ALERTS_LABEL}
      </Checkbox>
    </div>
  );
}
