import { describe, expect, it } from 'vitest';
import { passkeyDates } from './passkeys-texts';

describe('passkeyDates', () => {
  it('says when the passkey was added and last used', () => {
    expect(passkeyDates('2026-03-05T12:00:00Z', '2026-03-06T12:00:00Z')).toBe(
      'Добавлен 5 марта 2026 г. · Использован 6 марта 2026 г.',
    );
  });

  it('says so when it was never used', () => {
    expect(passkeyDates('2026-03-05T12:00:00Z', null)).toBe(
      'Добавлен 5 марта 2026 г. · Ещё не использовался',
    );
  });
});
