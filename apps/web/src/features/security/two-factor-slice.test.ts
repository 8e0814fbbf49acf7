import { describe, expect, it } from 'vitest';
import { fetchCurrentUser } from '@/features/auth';
import { recoveryCodesRenewed, twoFactorConnected, twoFactorSlice } from './two-factor-slice';

const reduce = twoFactorSlice.reducer;
const user = { isTwoFactorEnabled: true } as Parameters<typeof fetchCurrentUser.fulfilled>[0];

describe('the authenticator status', () => {
  it('follows the user; the codes left are known here only once renewed here', () => {
    const connected = reduce(undefined, fetchCurrentUser.fulfilled(user, 'id'));
    expect(connected).toEqual({ status: 'connected', recoveryCodesLeft: null });
    expect(reduce(connected, recoveryCodesRenewed(7))).toEqual({
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
