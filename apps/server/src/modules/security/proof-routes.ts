import { errorAnswerSchema } from '@portal/contracts/common';
import { CODE_SENT_TO_EMAIL, PROOF_ACCEPTED } from '@portal/contracts/messages';
import {
  proofAnswerSchema,
  proofCodeAnswerSchema,
  proofRequestSchema,
  proofStatusAnswerSchema,
} from '@portal/contracts/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUTH_PREFIX, requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import type { ProofService } from './proof-service.js';

const common = { tags: ['proof'], security: [{ bearer: [] }] };

/** A fresh proof of the owner for the session that asks; the rules are in proof-service.ts. */
export const proofRoutes: FastifyPluginAsyncZod<{ proofs: ProofService }> = async (
  app,
  { proofs },
) => {
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
      const { methods, provenUntil } = await proofs.status(sessionOf(request));
      return { methods, provenUntil: provenUntil?.toISOString() ?? null };
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
      await proofs.sendEmailCode(sessionOf(request).userId);
      return { message: CODE_SENT_TO_EMAIL };
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
      const provenUntil = await proofs.prove(sessionOf(request), request.body, clientOf(request));
      return { message: PROOF_ACCEPTED, provenUntil: provenUntil.toISOString() };
    },
  );
};
