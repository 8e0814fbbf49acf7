import { describe, expect, it } from 'vitest';
import { fetchCurrentUser } from '@/features/auth';
import { fetchTwoFactorStatus, twoFactorConnected, twoFactorSlice } from './two-factor-slice';

const reduce = twoFactorSlice.reducer;
const user = { isTwoFactorEnabled: true } as Parameters<typeof fetchCurrentUser.fulfilled>[0];

describe('the authenticator status', () => {
  it('follows the user, then the status call with the codes left', () => {
    const connected = reduce(undefined, fetchCurrentUser.fulfilled(user, 'id'));
    expect(connected).toEqual({ status: 'connected', recoveryCodesLeft: null });
    const status = { isEnabled: true, recoveryCodesLeft: 7 } as const;
    expect(reduce(connected, fetchTwoFactorStatus.fulfilled(status, 'id'))).toEqual({
      status: 'connected',
      recoveryCodesLeft: 7,
    });
  });

  it('keeps what it shows when a reload of the user fails', () => {
    const connected = reduce(undefined, twoFactorConnected({ recoveryCodes: 10 }));
    const failed = fetchCurrentUser.rejected(new Error('500'), 'id');
    expect(reduce(connected, failed)).toEqual({ status: 'connected', recoveryCodesLeft: 10 });
  });
});
