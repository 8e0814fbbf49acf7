/**
 * Changing a factor of the account (switching the authenticator on, linking Telegram or Yandex ID)
 * needs more than a bearer token: the session must have proved its owner within the last
 * RECENT_PROOF_MINUTES, by the current password or a code (`POST …/Auth/proof`, in
 * modules/security/proof-routes.ts). A token lifted from a browser is then not enough to plant
 * the thief's own authenticator. See docs/decisions/0011-fresh-proof-for-factor-changes.md.
 */
import { RECENT_PROOF_MINUTES } from '@portal/contracts/constants';
import { PROOF_REQUIRED } from '@portal/contracts/messages';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { type AuthenticatedSession, sessionOf } from './sessions.js';

export const RECENT_PROOF_WINDOW_MS = RECENT_PROOF_MINUTES * 60_000;

/** Until when a proof given at `provenAt` lets the session change factors. */
export function proofExpiry(provenAt: Date): Date {
  return new Date(provenAt.getTime() + RECENT_PROOF_WINDOW_MS);
}

/** 403 with `reason: 'proof_required'`: the web app then asks for the proof and repeats the call. */
export function proofRequired(): AppError {
  return new AppError('forbidden', PROOF_REQUIRED, { reason: 'proof_required' });
}

/** Throws proofRequired() unless `session` proved its owner within the window. */
export async function assertRecentlyProven(
  request: FastifyRequest,
  session: AuthenticatedSession,
): Promise<void> {
  const { sessions, clock } = request.server.deps;
  const provenAt = await sessions.provenAt(session.id);
  if (!provenAt || proofExpiry(provenAt) <= clock.now()) throw proofRequired();
}

/** preHandler for the routes that change a factor; runs after requireSession. */
export async function requireRecentProof(request: FastifyRequest): Promise<void> {
  await assertRecentlyProven(request, sessionOf(request));
}
