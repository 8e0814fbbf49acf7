import { errorAnswerSchema } from '@portal/contracts/common';
import { PROOF_ACCEPTED, REGISTRATION_CODE_SENT } from '@portal/contracts/messages';
import {
  type ProofMethod,
  type ProofRequest,
  proofAnswerSchema,
  proofCodeAnswerSchema,
  proofRequestSchema,
  proofStatusAnswerSchema,
} from '@portal/contracts/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invalidInput, notFound } from '../../http/app-error.js';
import { codeRefusal } from '../auth/one-time-codes.js';
import { verifyPassword } from '../auth/passwords.js';
import { proofExpiry } from '../auth/recent-proof.js';
import { AUTH_PREFIX } from '../auth/routes.js';
import type { UserRow } from '../auth/schema.js';
import { requireSession, sessionOf } from '../auth/sessions.js';
import { findUserById } from '../auth/users-repository.js';
import { wrongCode } from '../two-factor/two-factor-service.js';
import { proofCodeLetter } from './letters.js';
import { SECURITY_MESSAGES } from './messages.js';

const PROOF_PURPOSE = 'proof';
const common = { tags: ['proof'], security: [{ bearer: [] }] };

/**
 * A fresh proof of the owner for the session that asks (modules/auth/recent-proof.ts): the
 * routes that change a factor accept the session for RECENT_PROOF_MINUTES afterwards.
 */
export const proofRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, codes, mail, config, clock, sessions, twoFactor, loginThrottle } = app.deps;

  async function currentUser(userId: string) {
    const user = await findUserById(db, userId);
    if (!user) throw notFound('Пользователь не найден');
    return user;
  }

  /**
   * Every check of a proof goes through here; answers when the session was stamped. The password
   * and the authenticator's code are checked under the account's sign-in lock, exactly like a
   * sign-in: counted before the check, a waiting account gets 429 even for the right answer. A
   * mailed code has limits of its own (5 tries a code, the resend countdown, 6 letters an hour),
   * so the owner can still prove themselves while someone hammers the password.
   */
  async function checkProof(user: UserRow, sessionId: string, proof: ProofRequest) {
    if (proof.emailCode !== undefined) {
      const result = await codes.redeem(
        { purpose: PROOF_PURPOSE, subject: user.id, code: proof.emailCode },
        (_redeemed, tx) => sessions.markProven(sessionId, tx),
      );
      if (!result.ok) throw codeRefusal(result.reason, 'emailCode');
      return result.value;
    }
    return loginThrottle.guard(user.id, async () => {
      if (proof.password !== undefined) {
        if (!user.passwordHash || !(await verifyPassword(user.passwordHash, proof.password))) {
          throw invalidInput(SECURITY_MESSAGES.oldPasswordWrong, {
            password: [SECURITY_MESSAGES.oldPasswordWrong],
          });
        }
        return sessions.markProven(sessionId);
      }
      // The authenticator's code or a recovery code; its step (or the code) is spent with the stamp.
      return db.transaction(async (tx) => {
        if (!(await twoFactor.verifySecondFactor(user.id, proof.code ?? '', tx))) throw wrongCode();
        return sessions.markProven(sessionId, tx);
      });
    });
  }

  app.get(
    `${AUTH_PREFIX}/proof`,
    {
      onRequest: requireSession,
      schema: {
        ...common,
        summary: 'Чем аккаунт может подтвердить, что это он, и до какого времени подтверждён сеанс',
        response: { 200: proofStatusAnswerSchema, 401: errorAnswerSchema, 404: errorAnswerSchema },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const user = await currentUser(session.userId);
      const methods: ProofMethod[] = [];
      if (user.passwordHash) methods.push('password');
      if (await twoFactor.isEnabled(user.id)) methods.push('authenticator');
      methods.push('email');
      const provenAt = await sessions.provenAt(session.id);
      const until = provenAt ? proofExpiry(provenAt) : null;
      return { methods, provenUntil: until && until > clock.now() ? until.toISOString() : null };
    },
  );

  app.post(
    `${AUTH_PREFIX}/proof/email-code`,
    {
      onRequest: requireSession,
      schema: {
        ...common,
        summary: 'Отправляет код подтверждения на почту аккаунта',
        response: {
          200: proofCodeAnswerSchema,
          401: errorAnswerSchema,
          404: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const user = await currentUser(sessionOf(request).userId);
      await db.transaction(async (tx) => {
        const issued = await codes.issue(
          { purpose: PROOF_PURPOSE, subject: user.id, userId: user.id },
          tx,
        );
        await mail.enqueue(
          proofCodeLetter(config, { to: user.email, firstName: user.firstName, code: issued.code }),
          tx,
        );
      });
      return { message: REGISTRATION_CODE_SENT };
    },
  );

  app.post(
    `${AUTH_PREFIX}/proof`,
    {
      onRequest: requireSession,
      schema: {
        ...common,
        summary:
          'Подтверждает, что это владелец: текущий пароль, код из приложения (или резервный) ' +
          'или код из письма. Действует для этого сеанса несколько минут',
        body: proofRequestSchema,
        response: {
          200: proofAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          404: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const user = await currentUser(session.userId);
      const provenAt = await checkProof(user, session.id, request.body);
      return { message: PROOF_ACCEPTED, provenUntil: proofExpiry(provenAt).toISOString() };
    },
  );
};
