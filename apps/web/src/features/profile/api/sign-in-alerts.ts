import type { SignInAlertsAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** PUT sign-in-alerts: the alert letter after a sign-in from a new device, on or off. */
export async function putSignInAlerts(byEmail: boolean): Promise<SignInAlertsAnswer> {
  const { data } = await msApi.put<SignInAlertsAnswer>(
    '/authms/api/Auth/sign-in-alerts',
    { byEmail },
    { requiresAuth: true },
  );
  return data;
}
