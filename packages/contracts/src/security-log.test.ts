import { describe, expect, it } from 'vitest';
import { describeSecurityEvent, SECURITY_EVENT_KINDS, type SecurityEvent } from './security-log';

const event = (kind: SecurityEvent['kind'], details: SecurityEvent['details'] = {}, count = 1) =>
  describeSecurityEvent({ kind, details, count });

describe('describeSecurityEvent', () => {
  it('words every kind in Russian', () => {
    for (const kind of SECURITY_EVENT_KINDS) expect(event(kind)).toMatch(/^[А-ЯЁ][а-яё]/);
  });

  it('says how a sign-in got in, with its second factor', () => {
    expect(event('sign_in', { method: 'password' })).toBe('Вход по паролю');
    expect(event('sign_in', { method: 'password', secondFactor: 'authenticator' })).toBe(
      'Вход по паролю и коду из приложения',
    );
    expect(event('sign_in', { method: 'password', secondFactor: 'recovery_code' })).toBe(
      'Вход по паролю и резервному коду',
    );
    expect(event('sign_in', { method: 'password', secondFactor: 'passkey' })).toBe(
      'Вход по паролю и ключу доступа',
    );
    expect(event('sign_in', { method: 'passkey' })).toBe('Вход с ключом доступа');
    expect(event('sign_in', { method: 'yandex' })).toBe('Вход через Яндекс ID');
    expect(event('sign_in', { method: 'registration' })).toBe('Вход после подтверждения почты');
  });

  it('counts failures and names sites and what else ended', () => {
    expect(event('sign_in_failed', {}, 3)).toBe('Неудачные попытки входа: 3');
    expect(event('hand_off', { site: 'Хостинг' })).toBe('Переход на сайт «Хостинг»');
    expect(event('site_sign_in', { site: 'Хостинг' })).toBe('Вход на сайт «Хостинг»');
    expect(event('session_ended', { via: 'devices', site: 'Хостинг' })).toBe(
      'Выход из аккаунта на сайте «Хостинг»',
    );
    expect(event('sign_out', { site: 'Лаунчер' })).toBe('Выход из аккаунта на сайте «Лаунчер»');
    expect(event('sessions_ended', { isCurrentKept: true })).toBe(
      'Завершены все сеансы, кроме текущего',
    );
    expect(event('password_changed', { isSignedOutElsewhere: true })).toBe(
      'Пароль изменён, другие сеансы завершены',
    );
    expect(event('session_ended', { via: 'telegram' })).toBe(
      'Завершён сеанс на другом устройстве через Telegram',
    );
    expect(event('two_factor_enabled')).toBe('Двухфакторная защита включена');
    expect(event('telegram_linked')).toBe('Привязан Telegram');
  });
});
