import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messagesOf } from '../test/support/schema-messages';
import {
  cleanedName,
  emailSchema,
  errorAnswerSchema,
  hasAtMostTwoDecimals,
  hasVisibleCharacter,
  isCleanName,
  kopecksToRoubles,
  messageAnswerSchema,
  normalizeTypedCode,
  oneTimeCodeSchema,
  passwordSchema,
  roublesToKopecks,
  toFieldErrors,
} from './common';

describe('password rule', () => {
  it('accepts a password meeting every rule, at both length limits', () => {
    expect(messagesOf(passwordSchema, 'Abcdefg1')).toEqual([]);
    expect(messagesOf(passwordSchema, `Ab1${'x'.repeat(29)}`)).toEqual([]);
    expect(messagesOf(passwordSchema, 'Pa$$w0rd!_ok')).toEqual([]);
  });

  it.each([
    ['too short', 'Abcde1', 'Пароль должен содержать минимум 8 символов'],
    ['too long', `Ab1${'x'.repeat(30)}`, 'Пароль должен содержать максимум 32 символа'],
    ['no uppercase', 'abcdefg1', 'Пароль должен содержать хотя бы одну заглавную букву (A-Z)'],
    ['no lowercase', 'ABCDEFG1', 'Пароль должен содержать хотя бы одну строчную букву (a-z)'],
    ['no digit', 'Abcdefgh', 'Пароль должен содержать хотя бы одну цифру (0-9)'],
    ['Cyrillic', 'Abcdefg1ж', 'Пароль не должен содержать кириллицу'],
    ['Cyrillic ё', 'Abcdefg1Ё', 'Пароль не должен содержать кириллицу'],
  ])('%s → exactly the product message', (_case, input, message) => {
    expect(messagesOf(passwordSchema, input)).toEqual([message]);
  });

  it('lists the problems in a fixed order, Cyrillic first (the username rule does the same)', () => {
    expect(messagesOf(passwordSchema, 'ж')).toEqual([
      'Пароль не должен содержать кириллицу',
      'Пароль должен содержать минимум 8 символов',
      'Пароль должен содержать хотя бы одну заглавную букву (A-Z)',
      'Пароль должен содержать хотя бы одну строчную букву (a-z)',
      'Пароль должен содержать хотя бы одну цифру (0-9)',
    ]);
    // A Latin-layout password typed in the Russian one: the layout is what to fix.
    expect(messagesOf(passwordSchema, 'Пароль2024a')[0]).toBe(
      'Пароль не должен содержать кириллицу',
    );
  });

  it('answers a missing password in Russian', () => {
    expect(messagesOf(passwordSchema, undefined)).toEqual(['Введите пароль']);
  });
});

describe('e-mail', () => {
  it('accepts and trims a valid address', () => {
    expect(emailSchema.parse('  User@Example.com ')).toBe('User@Example.com');
  });

  it.each([[''], ['user'], ['user@'], ['@example.com'], ['a b@example.com'], [undefined], [42]])(
    '%s → Некорректный email',
    (input) => {
      expect(messagesOf(emailSchema, input)).toEqual(['Некорректный email']);
    },
  );

  it('refuses an address longer than 254 characters', () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.ru`;
    expect(long.length).toBeGreaterThan(254);
    expect(messagesOf(emailSchema, long)).toEqual(['Некорректный email']);
  });
});

describe('one-time code', () => {
  it('accepts six digits, trimmed', () => {
    expect(oneTimeCodeSchema.parse(' 012345 ')).toBe('012345');
  });

  it.each([[''], ['12345'], ['1234567'], ['12345a'], ['١٢٣٤٥٦'], [123456]])(
    '%s → Неверный код',
    (input) => {
      expect(messagesOf(oneTimeCodeSchema, input)).toEqual(['Неверный код']);
    },
  );
});

describe('codes as people type and paste them', () => {
  const typings = [
    ['123 456', 'a space in the middle'],
    ['123-456', 'a hyphen'],
    ['123–456', 'an en dash'],
    [' 123456\n', 'a pasted line with spaces and a line break'],
    ['\t123 456\r\n', 'a tab, a space and CRLF'],
    ['１２３４５６', 'full-width digits'],
    ['１２３ ４５６', 'full-width digits with a space'],
    ['123\u00a0456', 'a no-break space'],
  ] as const;

  it.each(typings)('«%s» (%s) is the code 123456', (typed) => {
    expect(normalizeTypedCode(typed)).toBe('123456');
    expect(oneTimeCodeSchema.parse(typed)).toBe('123456');
  });

  it('keeps what is not a digit, a space or a dash, so a wrong code stays wrong', () => {
    expect(normalizeTypedCode('12a 456')).toBe('12a456');
    expect(messagesOf(oneTimeCodeSchema, '12a 456')).toEqual(['Неверный код']);
    expect(messagesOf(oneTimeCodeSchema, '123 45')).toEqual(['Неверный код']);
    expect(messagesOf(oneTimeCodeSchema, '1234 567')).toEqual(['Неверный код']);
  });
});

describe('answers', () => {
  it('the error answer has a message and optional per-field messages', () => {
    expect(errorAnswerSchema.safeParse({ message: 'Ошибка' }).success).toBe(true);
    expect(
      errorAnswerSchema.safeParse({ message: 'Ошибка', errors: { email: ['Некорректный email'] } })
        .success,
    ).toBe(true);
    expect(errorAnswerSchema.safeParse({ message: 'Ошибка', errors: { email: 'x' } }).success).toBe(
      false,
    );
    expect(messageAnswerSchema.safeParse({}).success).toBe(false);
  });
});

describe('money', () => {
  it('knows at most two decimals, tolerating binary noise', () => {
    expect(hasAtMostTwoDecimals(500)).toBe(true);
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(true);
    expect(hasAtMostTwoDecimals(1790.99)).toBe(true);
    expect(hasAtMostTwoDecimals(10.005)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('converts roubles and kopecks both ways', () => {
    expect(roublesToKopecks(1790.99)).toBe(179099);
    expect(roublesToKopecks(0.1 + 0.2)).toBe(30);
    expect(kopecksToRoubles(179099)).toBe(1790.99);
  });
});

describe('toFieldErrors', () => {
  it('groups messages by dot-joined path, in order', () => {
    const schema = z.object({
      password: passwordSchema,
      receipt: z.object({ email: emailSchema }),
    });
    const result = schema.safeParse({ password: 'abc', receipt: { email: 'x' } });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(toFieldErrors(result.error)).toEqual({
      password: [
        'Пароль должен содержать минимум 8 символов',
        'Пароль должен содержать хотя бы одну заглавную букву (A-Z)',
        'Пароль должен содержать хотя бы одну цифру (0-9)',
      ],
      'receipt.email': ['Некорректный email'],
    });
  });
});

describe('names the portal shows', () => {
  it('needs at least one visible letter, digit, punctuation mark or symbol', () => {
    for (const visible of ['a', 'Й', '7', '.', '★', 'e\u0301', '\u3164a']) {
      expect(hasVisibleCharacter(visible), visible).toBe(true);
    }
    for (const blank of [
      '',
      ' ',
      '\u0301',
      '\u20dd',
      '\ufe0f',
      '\u{e0100}',
      '\u3164',
      '\u115f',
      '\u1160',
      '\uffa0',
      '\u2800',
      '\u3000',
    ]) {
      expect(hasVisibleCharacter(blank), JSON.stringify(blank)).toBe(false);
    }
  });

  it('refuses an invisible name as it refuses control characters; an empty one is for its schema', () => {
    expect(isCleanName('Иван')).toBe(true);
    expect(isCleanName('')).toBe(true);
    expect(isCleanName('\u0301\u0301')).toBe(false);
    expect(isCleanName('Ив\u0007ан')).toBe(false);
  });

  it('cleans a name from elsewhere to nothing when nothing visible is left', () => {
    expect(cleanedName(' \u200bАлексей ')).toBe('Алексей');
    expect(cleanedName('\u200b\u0301\u3164')).toBe('');
  });
});
