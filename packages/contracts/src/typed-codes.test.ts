import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  loginRecoveryFormSchema,
  loginRequestSchema,
  loginTwoFactorFormSchema,
  verifyRegistrationRequestSchema,
} from './auth';
import {
  emailChangeCodeFormSchema,
  emailChangeConfirmRequestSchema,
  emailChangeVerifyCurrentRequestSchema,
} from './profile';
import {
  logoutAllRequestSchema,
  passwordChangeCodeCheckRequestSchema,
  passwordChangeRequestSchema,
  resetPasswordFormSchema,
  resetPasswordRequestSchema,
  twoFactorCodeRequestSchema,
  twoFactorConfirmRequestSchema,
  twoFactorSetupFormSchema,
} from './security';
import { yandexExchangeRequestSchema } from './yandex';

// Every form and call that takes a mailed or authenticator code, with the rest of a valid body:
// the code field's name, then the body around it.
const password = 'Passw0rd!x';
const codeFields: [string, z.ZodType, string, Record<string, unknown>][] = [
  ['verify-registration', verifyRegistrationRequestSchema, 'code', { email: 'a@b.ru' }],
  ['login', loginRequestSchema, 'twoFactorCode', { usernameOrEmail: 'player', password }],
  [
    'login form, second step',
    loginTwoFactorFormSchema,
    'twoFactorCode',
    { usernameOrEmail: 'player', password },
  ],
  ['Yandex second step', yandexExchangeRequestSchema, 'twoFactorCode', { code: 'yandex-code' }],
  ['reset', resetPasswordRequestSchema, 'code', { email: 'a@b.ru', newPassword: password }],
  [
    'reset form',
    resetPasswordFormSchema,
    'code',
    { newPassword: password, repeatPassword: password, logoutAll: true },
  ],
  ['logout-all after a reset', logoutAllRequestSchema, 'code', { email: 'a@b.ru' }],
  [
    'password change',
    passwordChangeRequestSchema,
    'code',
    { oldPassword: 'x', newPassword: password },
  ],
  ['password change code check', passwordChangeCodeCheckRequestSchema, 'code', {}],
  ['e-mail change form', emailChangeCodeFormSchema, 'code', {}],
  ['e-mail change, current address', emailChangeVerifyCurrentRequestSchema, 'code', {}],
  ['e-mail change, new address', emailChangeConfirmRequestSchema, 'code', {}],
  ['authenticator, first code', twoFactorCodeRequestSchema, 'code', {}],
  ['authenticator setup form', twoFactorSetupFormSchema, 'code', {}],
  ['authenticator off, proof step', twoFactorConfirmRequestSchema, 'code', {}],
];

describe.each(codeFields)('%s', (_name, schema, field, rest) => {
  it.each(['123 456', '123-456', ' 123456\n', '１２３４５６', '\t123 – 456 '])(
    'takes «%s» as 123456',
    (typed) => {
      const parsed = schema.parse({ ...rest, [field]: typed }) as Record<string, unknown>;
      expect(parsed[field]).toBe('123456');
    },
  );
});

describe('recovery codes', () => {
  it.each(['k3f9q-7wx2m', 'K3F9Q 7WX2M', ' k3f9q7wx2m\n', 'ｋ３ｆ９ｑ－７ｗｘ２ｍ'])(
    'take «%s» as k3f9q7wx2m',
    (typed) => {
      const body = { usernameOrEmail: 'player', password, twoFactorCode: typed };
      expect(loginRecoveryFormSchema.parse(body).twoFactorCode.toLowerCase()).toBe('k3f9q7wx2m');
      expect(twoFactorConfirmRequestSchema.parse({ code: typed }).code.toLowerCase()).toBe(
        'k3f9q7wx2m',
      );
    },
  );
});
