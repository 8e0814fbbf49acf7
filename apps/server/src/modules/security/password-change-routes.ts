import { errorAnswerSchema } from '@portal/contracts/common';
import {
  PASSWORD_CHANGE_PRODUCT,
  passwordChangeAnswerSchema,
  passwordChangeCodeAnswerSchema,
  passwordChangeRequestSchema,
} from '@portal/contracts/security';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Tx } from '../../db/database.js';
import { AppError, invalidInput, notFound } from '../../http/app-error.js';
import { codeRefusal } from '../auth/one-time-codes.js';
import { assertPasswordAllowed } from '../auth/password-policy.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { users } from '../auth/schema.js';
import { requireSession, sessionOf } from '../auth/sessions.js';
import { findUserById } from '../auth/users-repository.js';
import { wrongCode } from '../two-factor/two-factor-service.js';
import { passwordChangeCodeLetter, passwordChangedLetter } from './letters.js';
import { SECURITY_MESSAGES } from './messages.js';

const PREFIX = `/${PASSWORD_CHANGE_PRODUCT}/auth/password`;
const PASSWORD_CHANGE_PURPOSE = 'password-change';
const common = { tags: ['password'], security: [{ bearer: [] }] };

/**
 * Password change from the profile (spec §2 "Profile", DESIGN §3): the current password plus a
 * fresh code — mailed, or the authenticator's when two-factor is on. A wrong current password or
 * a wrong authenticator code counts toward the account's sign-in lock, like a failed login.
 */
export const passwordChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, codes, mail, config, sessions, twoFactor, loginThrottle, clock } = app.deps;

  async function currentUser(userId: string) {
    const user = await findUserById(db, userId);
    if (!user) throw notFound('Пользователь не найден');
    return user;
  }

  app.post(
    `${PREFIX}/change-code`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary: 'Отправляет на почту код для смены пароля (не нужен, если включён аутентификатор)',
        response: {
          200: passwordChangeCodeAnswerSchema,
          401: errorAnswerSchema,
          404: errorAnswerSchema,
          409: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const user = await currentUser(sessionOf(request).userId);
      if (await twoFactor.isEnabled(user.id)) {
        throw new AppError('conflict', SECURITY_MESSAGES.changeNeedsAuthenticator);
      }
      await db.transaction(async (tx) => {
        const issued = await codes.issue(
          { purpose: PASSWORD_CHANGE_PURPOSE, subject: user.id, userId: user.id },
          tx,
        );
        await mail.enqueue(
          passwordChangeCodeLetter(config, {
            to: user.email,
            firstName: user.firstName,
            code: issued.code,
          }),
          tx,
        );
      });
      return { status: 'ok' as const, message: SECURITY_MESSAGES.changeCodeSent };
    },
  );

  app.post(
    `${PREFIX}/change`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary:
          'Меняет пароль: текущий пароль, новый и код (из письма или из аутентификатора); ' +
          'по желанию завершает остальные сеансы',
        body: passwordChangeRequestSchema,
        response: {
          200: passwordChangeAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          404: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const { oldPassword, newPassword, code, logoutOtherSessions } = request.body;
      const user = await currentUser(session.userId);
      // The new password is judged before any secret is checked, so a typo in it never counts
      // toward the lock.
      if (newPassword === oldPassword) {
        throw invalidInput(SECURITY_MESSAGES.samePassword, {
          newPassword: [SECURITY_MESSAGES.samePassword],
        });
      }
      assertPasswordAllowed(newPassword, user, 'newPassword');

      const apply = async (tx: Tx, passwordHash: string) => {
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: clock.now() })
          .where(eq(users.id, user.id));
        if (logoutOtherSessions) {
          await sessions.revokeAll(user.id, { exceptSessionId: session.id }, tx);
        }
        await mail.enqueue(
          passwordChangedLetter(config, {
            to: user.email,
            firstName: user.firstName,
            how: 'change',
          }),
          tx,
        );
      };

      // Under the account's sign-in lock: a wrong current password or a wrong code stays
      // counted, a waiting account is refused before anything is checked.
      await loginThrottle.guard(user.id, async () => {
        if (!user.passwordHash || !(await verifyPassword(user.passwordHash, oldPassword))) {
          throw invalidInput(SECURITY_MESSAGES.oldPasswordWrong, {
            oldPassword: [SECURITY_MESSAGES.oldPasswordWrong],
          });
        }
        const passwordHash = await hashPassword(newPassword);
        if (await twoFactor.isEnabled(user.id)) {
          const accepted = await db.transaction(async (tx) => {
            if (!(await twoFactor.verifySecondFactor(user.id, code, tx))) return false;
            await apply(tx, passwordHash);
            return true;
          });
          if (!accepted) throw wrongCode();
        } else {
          const result = await codes.redeem(
            { purpose: PASSWORD_CHANGE_PURPOSE, subject: user.id, code },
            (_redeemed, tx) => apply(tx, passwordHash),
          );
          if (!result.ok) throw codeRefusal(result.reason);
        }
      });
      return { status: 'ok' as const, message: SECURITY_MESSAGES.passwordChanged };
    },
  );
};
