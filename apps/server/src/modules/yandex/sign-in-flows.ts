import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db, Executor } from '../../db/database.js';
import { generateToken, hashToken } from '../auth/index.js';
import { yandexFlows } from './schema.js';

/** How long the code the callback hands to /auth may be exchanged for a session. */
export const SIGN_IN_CODE_TTL_MS = 60_000;
/** The same for an account asked a second step: the user types its code, or uses a passkey. */
export const SECOND_FACTOR_SIGN_IN_CODE_TTL_MS = 5 * 60_000;

/**
 * A flow is one Yandex sign-in (or linking) in one browser. The browser keeps a random flow id in
 * an HttpOnly cookie; the state and the database know only its SHA-256.
 */
export function newFlow() {
  const flowId = generateToken();
  return { flowId, flowHash: hashToken(flowId) };
}

export const flowHashOf = (flowId: string) => hashToken(flowId);

/**
 * Marks the flow's state as used. False when it was used already: an answer from Yandex counts
 * once, so a replayed callback URL signs nobody in.
 */
export async function spendState(db: Db, flowHash: string, stateExpiresAt: Date, now: Date) {
  const spent = await db
    .insert(yandexFlows)
    .values({ flowHash, expiresAt: stateExpiresAt, createdAt: now })
    .onConflictDoNothing()
    .returning({ flowHash: yandexFlows.flowHash });
  return spent.length === 1;
}

/** A one-time code that signs `userId` in from this flow's browser; only its hash is kept. */
export async function issueSignInCode(
  db: Db,
  flowHash: string,
  userId: string,
  now: Date,
  ttlMs = SIGN_IN_CODE_TTL_MS,
) {
  const code = generateToken();
  await db
    .update(yandexFlows)
    .set({ codeHash: hashToken(code), userId, expiresAt: new Date(now.getTime() + ttlMs) })
    .where(eq(yandexFlows.flowHash, flowHash));
  return code;
}

const isLiveCode = (input: { code: string; flowId: string }, now: Date) =>
  and(
    eq(yandexFlows.codeHash, hashToken(input.code)),
    eq(yandexFlows.flowHash, flowHashOf(input.flowId)),
    isNull(yandexFlows.exchangedAt),
    gt(yandexFlows.expiresAt, now),
  );

/**
 * The user a live, unused code of this flow would sign in, without spending it (the sign-in
 * policy asks the account's second step first); null when there is none.
 */
export async function signInCodeOwner(
  db: Db,
  input: { code: string; flowId: string },
  now: Date,
): Promise<string | null> {
  const [flow] = await db
    .select({ userId: yandexFlows.userId })
    .from(yandexFlows)
    .where(isLiveCode(input, now));
  return flow?.userId ?? null;
}

/**
 * Marks a live, unused code of this flow exchanged and answers the user it signs in; null
 * otherwise. Run in the sign-in's transaction (the sign-in policy's `inTransaction`): of
 * concurrent exchanges of one code exactly one wins, the second waits on the row and then finds
 * it exchanged.
 */
export async function spendSignInCode(
  executor: Executor,
  input: { code: string; flowId: string },
  now: Date,
): Promise<string | null> {
  const [flow] = await executor
    .update(yandexFlows)
    .set({ exchangedAt: now })
    .where(isLiveCode(input, now))
    .returning({ userId: yandexFlows.userId });
  return flow?.userId ?? null;
}
