import { describe, expect, it } from 'vitest';
import {
  callEnded,
  callStarted,
  closed,
  codeRefused,
  codeTyped,
  currentCodeSent,
  currentEmailVerified,
  type EmailChangeState,
  emailChanged,
  emailChangeFlow,
  initialEmailChangeState,
  newCodeSent,
  newEmailRefused,
} from './email-change-flow';

const run = (...actions: Parameters<typeof emailChangeFlow.reducer>[1][]): EmailChangeState =>
  actions.reduce(emailChangeFlow.reducer, initialEmailChangeState);

describe('the e-mail change steps', () => {
  it('go from the start to both codes and the new address, each with empty boxes', () => {
    expect(run().step).toBe('start');
    expect(run(currentCodeSent())).toMatchObject({ step: 'current-code', code: '' });
    const verified = run(currentCodeSent(), codeTyped('123456'), currentEmailVerified());
    expect(verified).toMatchObject({ step: 'new-email', code: '', codeError: null });
    const newCode = run(currentCodeSent(), currentEmailVerified(), newCodeSent('new@example.com'));
    expect(newCode).toMatchObject({ step: 'new-code', newEmail: 'new@example.com', code: '' });
    expect(
      run(
        currentCodeSent(),
        currentEmailVerified(),
        newCodeSent('new@example.com'),
        emailChanged(),
      ),
    ).toMatchObject({
      step: 'done',
      code: '',
      codeError: null,
    });
  });

  it('keep refused digits with the reason, and drop the reason when the digits change', () => {
    const refused = run(currentCodeSent(), codeTyped('123456'), codeRefused('Неверный код'));
    expect(refused).toMatchObject({ code: '123456', codeError: 'Неверный код' });
    expect(emailChangeFlow.reducer(refused, codeTyped('1'))).toMatchObject({
      code: '1',
      codeError: null,
    });
  });

  it('empty the boxes and the reason when a code is sent again', () => {
    const again = run(
      currentCodeSent(),
      codeTyped('12'),
      codeRefused('Неверный код'),
      currentCodeSent(),
    );
    expect(again).toMatchObject({ step: 'current-code', code: '', codeError: null });
  });

  it('go back to the address, keeping it, when the new one is refused after its code', () => {
    const refused = run(
      currentCodeSent(),
      currentEmailVerified(),
      newCodeSent('taken@example.com'),
      codeTyped('123456'),
      newEmailRefused(),
    );
    expect(refused).toMatchObject({ step: 'new-email', code: '', newEmail: 'taken@example.com' });
  });

  it('wait while a call is under way', () => {
    expect(run(callStarted()).isBusy).toBe(true);
    expect(run(callStarted(), callEnded()).isBusy).toBe(false);
  });

  it('start over when closed', () => {
    const midway = run(currentCodeSent(), currentEmailVerified(), newCodeSent('new@example.com'));
    expect(emailChangeFlow.reducer(midway, closed())).toEqual(initialEmailChangeState);
  });
});
