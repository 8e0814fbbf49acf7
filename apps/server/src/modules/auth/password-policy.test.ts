import { passwordSchema } from '@portal/contracts/common';
import { describe, expect, it } from 'vitest';
import { normalizeUserName, userNameKey } from '../accounts/index.js';
import { commonPasswords, isCommonPassword, passwordPolicyProblem } from './password-policy.js';

describe('common-password blocklist', () => {
  it('ships at least 10,000 entries', () => {
    expect(commonPasswords().size).toBeGreaterThanOrEqual(10_000);
  });

  it('refuses common passwords that pass the form rule, in any letter case', () => {
    for (const password of ['Password1', 'Qwerty123', 'Iloveyou1', 'Abc12345', 'Letmein1']) {
      expect(passwordSchema.safeParse(password).success, password).toBe(true);
      expect(isCommonPassword(password), password).toBe(true);
    }
    expect(isCommonPassword('Password1')).toBe(true);
    expect(isCommonPassword('qWERTY123')).toBe(true);
    expect(isCommonPassword('Zx9-Plover-Harp')).toBe(false);
  });

  it('refuses a password equal to the username or the e-mail', () => {
    expect(passwordPolicyProblem('Gamer2024X', { userName: 'gamer2024x' })).toBe(
      'Пароль не должен совпадать с никнеймом или почтой',
    );
    expect(passwordPolicyProblem('Me1@Mail.ru', { email: ' me1@mail.ru ' })).toBe(
      'Пароль не должен совпадать с никнеймом или почтой',
    );
    expect(passwordPolicyProblem('Zx9-Plover-Harp', { userName: 'u', email: 'e@x.io' })).toBeNull();
  });
});

describe('usernames', () => {
  it('collapse look-alikes and case into one key', () => {
    expect(userNameKey('ＰｌａｙｅｒＯｎｅ')).toBe('playerone');
    expect(userNameKey('PlayerOne')).toBe('playerone');
    expect(userNameKey('ﬁsh')).toBe('fish');
  });

  it('are Latin letters, digits, _ . - only when chosen or changed', () => {
    expect(normalizeUserName(' Player One ')).toBe('PlayerOne');
    expect(() => normalizeUserName('ab')).toThrow('Минимум 3 символа');
    expect(() => normalizeUserName('ＰｌａｙｅｒＯｎｅ')).toThrow('только латинские буквы');
    expect(() => normalizeUserName('a@b')).toThrow('только латинские буквы');
    expect(() => normalizeUserName('bad\u202Ename')).toThrow('только латинские буквы');
    expect(() => normalizeUserName('admin\u03bf')).toThrow('только латинские буквы');
    expect(() => normalizeUserName('кот')).toThrow('кириллицу');
  });
});
