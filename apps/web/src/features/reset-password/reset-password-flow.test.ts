import { describe, expect, it } from 'vitest';
import {
  backToEmail,
  codeReopened,
  codeResent,
  codeSent,
  initialResetPasswordState,
  isCodeOnItsWay,
  passwordReset,
  type ResetPasswordState,
  resetPasswordFlow,
  resetPasswordStateFor,
} from './reset-password-flow';

const run = (...actions: Parameters<typeof resetPasswordFlow.reducer>[1][]): ResetPasswordState =>
  actions.reduce(resetPasswordFlow.reducer, initialResetPasswordState);

const T = 1_700_000_000_000;
const sent = (email: string, at = T) => codeSent({ email, at });

describe('the password reset steps', () => {
  it('start at the address, with none typed yet', () => {
    expect(run()).toEqual({ step: 'email', email: '', resendAt: 0, isReopened: false });
  });

  it('go to the code once it is sent, remembering where and when another may be asked', () => {
    expect(run(sent('user@example.com'))).toEqual({
      step: 'code',
      email: 'user@example.com',
      resendAt: T + 60_000,
      isReopened: false,
    });
  });

  it('go back to the address with the one typed before, and on to another', () => {
    const back = run(sent('user@example.com'), backToEmail());
    expect(back).toMatchObject({ step: 'email', email: 'user@example.com' });
    expect(
      run(sent('user@example.com'), backToEmail(), sent('other@example.com', T + 5_000)),
    ).toMatchObject({ step: 'code', email: 'other@example.com', resendAt: T + 65_000 });
  });

  it('reopen the code step for a letter inside its countdown, keeping the countdown', () => {
    const reopened = run(sent('user@example.com'), backToEmail(), codeReopened());
    expect(reopened).toMatchObject({ step: 'code', resendAt: T + 60_000, isReopened: true });
    // A resend from there is a new letter: 30 s to the next one, and no longer "already sent".
    expect(resetPasswordFlow.reducer(reopened, codeResent({ at: T + 61_000 }))).toMatchObject({
      resendAt: T + 91_000,
      isReopened: false,
    });
  });

  it('know whether the same address (in any case) is still inside its countdown', () => {
    const state = run(sent('User@Example.com'), backToEmail());
    expect(isCodeOnItsWay(state, 'user@example.com', T + 59_000)).toBe(true);
    expect(isCodeOnItsWay(state, 'user@example.com', T + 60_000)).toBe(false);
    expect(isCodeOnItsWay(state, 'other@example.com', T + 1_000)).toBe(false);
    expect(isCodeOnItsWay(run(), '', T)).toBe(false);
  });

  it('end once the password is reset', () => {
    expect(run(sent('user@example.com'), passwordReset()).step).toBe('done');
  });
});

describe('opening the reset at its code step («Это был не я» mailed the code)', () => {
  it('starts at the code for that address, with the countdown the server gave', () => {
    expect(resetPasswordStateFor({ email: 'user@example.com', resendAfterSeconds: 45 }, T)).toEqual(
      {
        step: 'code',
        email: 'user@example.com',
        resendAt: T + 45_000,
        isReopened: false,
      },
    );
  });

  it('starts at the address for anything else in the router state', () => {
    for (const state of [null, undefined, {}, { email: 'a@b.c' }, 'user@example.com']) {
      expect(resetPasswordStateFor(state, T)).toEqual(initialResetPasswordState);
    }
  });
});
