import { describe, expect, it } from 'vitest';
import {
  closed,
  codeAccepted,
  codeAsked,
  codeRefused,
  codeTyped,
  initialPasswordChangeState,
  logoutOtherSessionsChosen,
  opened,
  type PasswordChangeState,
  passwordChangeFlow,
  saveRefused,
  saveStarted,
} from './password-change-flow';

const run = (...actions: Parameters<typeof passwordChangeFlow.reducer>[1][]): PasswordChangeState =>
  actions.reduce(passwordChangeFlow.reducer, initialPasswordChangeState);

describe('the password change steps', () => {
  it("go from the question to the code, and to the form once six of the app's digits are in", () => {
    expect(run(opened()).step).toBe('confirm');
    const asked = run(opened(), codeAsked({ usesAuthenticator: false }), codeTyped('12345'));
    expect(asked).toMatchObject({ step: 'code', code: '12345', usesAuthenticator: false });
    expect(
      run(opened(), codeAsked({ usesAuthenticator: true }), codeTyped('123456')),
    ).toMatchObject({ step: 'form', code: '123456', usesAuthenticator: true });
  });

  it('open the form for a mailed code only once the server found it right', () => {
    const typed = run(opened(), codeAsked({ usesAuthenticator: false }), codeTyped('123456'));
    expect(typed).toMatchObject({ step: 'code', isCheckingCode: true });
    expect(passwordChangeFlow.reducer(typed, codeAccepted())).toMatchObject({
      step: 'form',
      code: '123456',
      isCheckingCode: false,
    });
    expect(
      passwordChangeFlow.reducer(typed, codeRefused('Неверный код. Осталось попыток: 4')),
    ).toMatchObject({
      step: 'code',
      code: '',
      codeError: 'Неверный код. Осталось попыток: 4',
      isCheckingCode: false,
    });
    // An answer arriving after the dialog closed changes nothing.
    const closedBefore = passwordChangeFlow.reducer(typed, closed());
    expect(passwordChangeFlow.reducer(closedBefore, codeAccepted())).toEqual(closedBefore);
  });

  it('go back to emptied boxes with the reason when the server refuses the code', () => {
    const refused = run(
      opened(),
      codeAsked({ usesAuthenticator: false }),
      codeTyped('123456'),
      codeAccepted(),
      saveStarted(),
      saveRefused({ codeError: 'Неверный код' }),
    );
    expect(refused).toMatchObject({ step: 'code', code: '', codeError: 'Неверный код' });
    expect(run(codeTyped('1')).codeError).toBeNull();
    expect(run(saveStarted(), saveRefused({})).step).toBe('form');
  });

  it('start over after closing', () => {
    const before = run(
      opened(),
      codeAsked({ usesAuthenticator: true }),
      codeTyped('123456'),
      logoutOtherSessionsChosen(true),
    );
    expect(passwordChangeFlow.reducer(before, closed())).toEqual(initialPasswordChangeState);
  });
});
