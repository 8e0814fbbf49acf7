import {
  AMOUNT_NOT_POSITIVE,
  AMOUNT_REQUIRED,
  AMOUNT_TOO_PRECISE,
} from '@portal/contracts/messages';
import { STAFF_REASON_REQUIRED } from '@portal/contracts/staff';
import { describe, expect, it } from 'vitest';
import { correctionFormSchema, refundFormSchema, STAFF_CHANGE_FORMS } from './staff-forms';

/** A form's values that are right but for the reason. */
const filled: Record<string, Record<string, string>> = {
  factorReset: { code: '123456' },
  correction: { direction: 'credit', currency: 'rub', amount: '100' },
  refund: { amount: '' },
  grant: { email: 'anna@example.com', role: 'support' },
};

describe("the staff's change dialogs", () => {
  it.each(Object.keys(STAFF_CHANGE_FORMS))('%s asks for the reason', (change) => {
    const schema = STAFF_CHANGE_FORMS[change as keyof typeof STAFF_CHANGE_FORMS];
    for (const reason of ['', '  ', 'ab']) {
      const result = schema.safeParse({ ...filled[change], reason });
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({ path: ['reason'], message: STAFF_REASON_REQUIRED }),
      ]);
    }
    expect(schema.safeParse({ ...filled[change], reason: 'Обращение 42' }).success).toBe(true);
  });

  it('has a dialog for every account action of the contract', () => {
    expect(Object.keys(STAFF_CHANGE_FORMS)).toEqual(
      expect.arrayContaining(['unlock', 'end-sessions', 'block', 'unblock']),
    );
  });

  it('reads an amount as typed, in Russian style, and says in Russian what is wrong', () => {
    const correction = (amount: string) =>
      correctionFormSchema.safeParse({ ...filled.correction, amount, reason: 'Обращение 42' });
    expect(correction('1 500,50').data?.amount).toBe(1500.5);
    expect(correction('').error?.issues[0]?.message).toBe(AMOUNT_REQUIRED);
    expect(correction('сто').error?.issues[0]?.message).toMatch(/числом/);
    expect(correction('1,005').error?.issues[0]?.message).toBe(AMOUNT_TOO_PRECISE);
    expect(correction('0').error?.issues[0]?.message).toBe(AMOUNT_NOT_POSITIVE);
  });

  it('refunds all of a payment when no amount is typed', () => {
    const parsed = refundFormSchema.parse({ amount: '', reason: 'Обращение 42' });
    expect(parsed.amount).toBeUndefined();
    expect(refundFormSchema.parse({ amount: '99,90', reason: 'Обращение 42' }).amount).toBe(99.9);
  });
});
