import { describe, expect, it } from 'vitest';
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
  type TwoFactorSetupState,
  twoFactorSetupFlow,
} from './two-factor-setup-flow';

const run = (...actions: Parameters<typeof twoFactorSetupFlow.reducer>[1][]): TwoFactorSetupState =>
  actions.reduce(twoFactorSetupFlow.reducer, initialTwoFactorSetupState);
const key = { qrCode: 'iVBOR', secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x' };

describe('the authenticator dialogs', () => {
  it('open connect with the key; a first ask that brought none leaves it closed', () => {
    expect(run(connectStarted()).isStarting).toBe(true);
    expect(run(connectStarted(), connectOpened(key), connectSettled())).toMatchObject({
      dialog: 'connect',
      isStarting: false,
      enrollment: key,
    });
    // Refused, or a proof is due first (the setting's useProofThenRetry shows its step).
    expect(run(connectStarted(), connectSettled())).toMatchObject({
      dialog: 'none',
      isStarting: false,
      enrollment: null,
    });
  });

  it('show new recovery codes only once the dialog that got them is gone', () => {
    const codes = ['k3f9q-7wx2m', 'a1b2c-3d4e5'];
    const received = run(connectOpened(key), recoveryCodesReceived(codes));
    expect(received).toMatchObject({
      dialog: 'none',
      pendingCodes: codes,
      shownCodes: [],
    });
    const gone = twoFactorSetupFlow.reducer(received, dialogGone());
    expect(gone).toMatchObject({ enrollment: null, pendingCodes: [], shownCodes: codes });
    expect(twoFactorSetupFlow.reducer(gone, recoveryCodesSaved()).shownCodes).toEqual([]);
  });

  it('forget the key once the connect dialog is gone, and show no codes after a cancel', () => {
    const closed = run(connectOpened(key), dialogClosed());
    // Still on screen while the dialog closes.
    expect(closed).toMatchObject({ dialog: 'none', enrollment: key });
    expect(twoFactorSetupFlow.reducer(closed, dialogGone()).enrollment).toBeNull();
    expect(run(dialogOpened('renew'), dialogClosed(), dialogGone()).shownCodes).toEqual([]);
  });
});
