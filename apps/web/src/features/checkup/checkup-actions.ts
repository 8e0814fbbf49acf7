import type { CheckupItem } from '@portal/contracts/checkup';

/**
 * What each item's button does on the profile page: presses the control of the setting that
 * fixes it (opens the authenticator's dialog, turns the alerts on, opens the password change),
 * found by its `data-checkup-target`. Idle sessions go to the devices page instead.
 */
export const CHECKUP_TARGETS: Record<Exclude<CheckupItem, 'idle_sessions'>, string> = {
  email_confirmed: 'email',
  second_factor: 'two-factor-connect',
  recovery_codes: 'recovery-codes',
  sign_in_alerts: 'sign-in-alerts',
  password_not_common: 'password-change',
};

/** The query parameter that carries an item from the home page to the profile's card. */
export const CHECKUP_PARAM = 'checkup';

/** Presses the item's control on the page; false when it is not on the page (yet). */
export function pressCheckupTarget(item: Exclude<CheckupItem, 'idle_sessions'>): boolean {
  const control = document.querySelector<HTMLElement>(
    `[data-checkup-target="${CHECKUP_TARGETS[item]}"]`,
  );
  if (!control) return false;
  control.scrollIntoView({ block: 'center' });
  control.click();
  return true;
}
