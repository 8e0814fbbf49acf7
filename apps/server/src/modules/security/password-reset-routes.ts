import { errorAnswerSchema } from '@portal/contracts/common';
import {
  forgotPasswordAnswerSchema,
  forgotPasswordRequestSchema,
  resetPasswordAnswerSchema,
  resetPasswordRequestSchema,
} from '@portal/contracts/security';
import { eq, TransactionRollbackError } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { enforceLimit } from '../../adapters/rate-limit.js';
import { emailKey } from '../auth/identity.js';
import { CodeResendRefused, codeRefusal } from '../auth/one-time-codes.js';
import { assertPasswordAllowed, isCommonPassword } from '../auth/password-policy.js';
import { hashPassword } from '../auth/passwords.js';
import { users } from '../auth/schema.js';
import { findUserByEmailKey } from '../auth/users-repository.js';
import { passwordChangedLetter, resetCodeLetter } from './letters.js';
import { SECURITY_MESSAGES } from './messages.js';
import type { ResetLogoutGrants } from './reset-logout-grants.js';

const PREFIX = '/authms/api/Auth';
const MINUTE = 60_000;
const PASSWORD_RESET_PURPOSE = 'password-reset';
/** Per source address, whatever the e-mail: a limit that says nothing about any account. */
const PASSWORD_RESET_LIMITS = {
  requests: { limit: 10, windowMs: 15 * MINUTE },
  checks: { limit: 30, windowMs: 15 * MINUTE },
} as const;

/** Password recovery by an e-mail code (spec §2 "Reset-password flow", DESIGN §3). */
export const passwordResetRoutes: FastifyPluginAsyncZod<{ grants: ResetLogoutGrants }> = async (
  app,
  { grants },
) => {
  const { db, codes, mail, config, rateLimiter, loginThrottle, sessions } = app.deps;

  app.post(
    `${PREFIX}/forgot-password`,
    {
      schema: {
        tags: ['password'],
        summary:
          'Просит код сброса пароля. Тело — сама почта строкой JSON. Ответ всегда один и тот же; ' +
          'код уходит только на известную подтверждённую почту',
        body: forgotPasswordRequestSchema,
        response: {
          200: forgotPasswordAnswerSchema,
          400: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      await enforceLimit(
        rateLimiter,
        `reset-request:ip:${request.ip}`,
        PASSWORD_RESET_LIMITS.requests,
      );
      const key = emailKey(request.body);
      const user = await findUserByEmailKey(db, key);
      const isKnown = Boolean(user?.confirmedAt);
      try {
        await db.transaction(async (tx) => {
          const issued = await codes.issue(
            isKnown && user
              ? { purpose: PASSWORD_RESET_PURPOSE, subject: user.id, userId: user.id }
              : { purpose: PASSWORD_RESET_PURPOSE, subject: `unknown:${key}` },
            tx,
          );
          await mail.enqueue(
            resetCodeLetter(config, {
              to: user?.email ?? key,
              firstName: user?.firstName ?? '',
              code: issued.code,
            }),
            tx,
          );
          // An unknown or unconfirmed address does the same work and keeps none of it, so the
          // answer does not differ in time either (docs/decisions/0007).
          if (!isKnown) tx.rollback();
        });
      } catch (error) {
        // Inside the resend countdown the answer must still not differ from any other.
        if (!(error instanceof CodeResendRefused || error instanceof TransactionRollbackError)) {
          throw error;
        }
      }
      return { message: SECURITY_MESSAGES.resetCodeSent };
    },
  );

  app.post(
    `${PREFIX}/reset-password-with-code`,
    {
      schema: {
        tags: ['password'],
        summary:
          'Новый пароль по коду из письма (10 минут, один раз, 5 попыток). Аутентификатор не ' +
          'трогает; с logoutEverywhere: true в том же действии завершает все сеансы аккаунта, ' +
          'без него сеансы остаются (выход отовсюду — вызов logout-all с { email, code })',
        body: resetPasswordRequestSchema,
        response: {
          200: resetPasswordAnswerSchema,
          400: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const { email, newPassword, code, logoutEverywhere } = request.body;
      await enforceLimit(rateLimiter, `reset-check:ip:${request.ip}`, PASSWORD_RESET_LIMITS.checks);
      // Checks that say nothing about the account come before the code is spent.
      if (isCommonPassword(newPassword)) assertPasswordAllowed(newPassword, {}, 'newPassword');
      const user = await findUserByEmailKey(db, emailKey(email));
      // An unknown or unconfirmed address fails like a wrong code: nothing to learn here.
      if (!user?.confirmedAt) throw codeRefusal('wrong');

      const result = await codes.redeem(
        { purpose: PASSWORD_RESET_PURPOSE, subject: user.id, code },
        async (_redeemed, tx) => {
          // Throwing here keeps the code usable, so a refused password costs no try.
          assertPasswordAllowed(newPassword, user, 'newPassword');
          const passwordHash = await hashPassword(newPassword);
          await tx
            .update(users)
            .set({ passwordHash, updatedAt: app.deps.clock.now() })
            .where(eq(users.id, user.id));
          // In the reset's own transaction: the password and the sign-out happen together or not.
          if (logoutEverywhere) await sessions.revokeAll(user.id, {}, tx);
          await grants.grant(user.id, code, tx);
          await mail.enqueue(
            passwordChangedLetter(config, {
              to: user.email,
              firstName: user.firstName,
              how: 'reset',
            }),
            tx,
          );
        },
      );
      if (!result.ok) throw codeRefusal(result.reason);
      // Whoever proved the mailbox may sign in again at once.
      await loginThrottle.reset(`user:${user.id}`);
      return { message: SECURITY_MESSAGES.passwordReset };
    },
  );
};
