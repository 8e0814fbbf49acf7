import { errorAnswerSchema } from '@portal/contracts/common';
import { passkeyRequestOptionsAnswerSchema } from '@portal/contracts/passkeys';
import {
  STAFF_API,
  staffCodeProofRequestSchema,
  staffMeAnswerSchema,
  staffPasskeyProofRequestSchema,
  staffProofAnswerSchema,
} from '@portal/contracts/staff';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientOf } from '../security-log/index.js';
import { type StaffGuard, staffOf } from './guard.js';
import type { StaffProofService } from './proof-service.js';

export const common = { tags: ['staff'], security: [{ bearer: [] }] };
/** What every staff call may answer besides its own: not a member (as an unknown address). */
export const notStaff = { 404: errorAnswerSchema.describe('Не сотрудник (как неизвестный адрес)') };
export const proofNeeded = {
  403: errorAnswerSchema.describe('Нужно подтверждение: reason `staff_proof_required`'),
};

/** Who the member is, and the proof by the authenticator's code or a passkey. */
export const staffProofRoutes: FastifyPluginAsyncZod<{
  guard: StaffGuard;
  proofs: StaffProofService;
}> = async (app, { guard, proofs }) => {
  const member = guard.require('support', { isProofNeeded: false });

  app.get(
    `${STAFF_API}/me`,
    {
      onRequest: member,
      schema: {
        ...common,
        summary: 'Роль сотрудника, чем он может подтвердить, что это он, и до какого времени',
        response: { 200: staffMeAnswerSchema, ...notStaff },
      },
    },
    async (request) => proofs.me(staffOf(request)),
  );

  app.post(
    `${STAFF_API}/proof`,
    {
      onRequest: member,
      schema: {
        ...common,
        summary:
          'Подтверждение кодом из приложения-аутентификатора (не паролем и не кодом из письма)',
        body: staffCodeProofRequestSchema,
        response: {
          200: staffProofAnswerSchema,
          400: errorAnswerSchema,
          ...notStaff,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const until = await proofs.proveByCode(
        staffOf(request),
        request.body.code,
        clientOf(request),
      );
      return { provenUntil: until.toISOString() };
    },
  );

  app.post(
    `${STAFF_API}/proof/passkey/options`,
    {
      onRequest: member,
      schema: {
        ...common,
        summary: 'Параметры WebAuthn для подтверждения ключом доступа',
        response: { 200: passkeyRequestOptionsAnswerSchema, ...notStaff },
      },
    },
    async (request) => ({ options: await proofs.passkeyOptions(staffOf(request)) }),
  );

  app.post(
    `${STAFF_API}/proof/passkey`,
    {
      onRequest: member,
      schema: {
        ...common,
        summary: 'Подтверждение ключом доступа: ответ браузера на параметры',
        body: staffPasskeyProofRequestSchema,
        response: { 200: staffProofAnswerSchema, 400: errorAnswerSchema, ...notStaff },
      },
    },
    async (request) => {
      const until = await proofs.proveByPasskey(staffOf(request), request.body.credential);
      return { provenUntil: until.toISOString() };
    },
  );
};
