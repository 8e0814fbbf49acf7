import { describe, expect, it } from 'vitest';
import {
  connectOpened,
  connectStarted,
  dialogClosed,
  dialogGone,
  dialogOpened,
  initialTwoFactorSetupState,
  proofAskedForCode,
  recoveryCodesReceived,
  recoveryCodesSaved,
  type TwoFactorSetupState,
  twoFactorSetupFlow,
} from './two-factor-setup-flow';

const run = (...actions: Parameters<typeof twoFactorSetupFlow.reducer>[1][]): TwoFactorSetupState =>
  actions.reduce(twoFactorSetupFlow.reducer, initialTwoFactorSetupState);
const key = { qrCode: 'iVBOR', secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x' };

describe('the authenticator dialogs', () => {
  it('open connect with the key, or without it while a proof is due', () => {
    expect(run(connectStarted()).isStarting).toBe(true);
    expect(run(connectStarted(), connectOpened(key))).toMatchObject({
      dialog: 'connect',
      isStarting: false,
      enrollment: key,
    });
    expect(run(connectStarted(), connectOpened(null)).enrollment).toBeNull();
  });

  it('show new recovery codes only once the dialog that got them is gone', () => {
    const codes = ['k3f9q-7wx2m', 'a1b2c-3d4e5'];
    const received = run(connectOpened(key), proofAskedForCode(), recoveryCodesReceived(codes));
    expect(received).toMatchObject({
      dialog: 'none',
      isProofAskedForCode: false,
      pendingCodes: codes,
      shownCodes: [],
    });
    const gone = twoFactorSetupFlow.reducer(received, dialogGone());
    expect(gone).toMatchObject({ enrollment: null, pendingCodes: [], shownCodes: codes });
    expect(twoFactorSetupFlow.reducer(gone, recoveryCodesSaved()).shownCodes).toEqual([]);
  });

  it('forget a proof asked for the code when the dialog closes', () => {
    const closedAfterProof = run(connectOpened(key), proofAskedForCode(), dialogClosed());
    expect(closedAfterProof).toMatchObject({ dialog: 'none', isProofAskedForCode: false });
    expect(run(dialogOpened('renew'), dialogClosed(), dialogGone()).shownCodes).toEqual([]);
  });
});
