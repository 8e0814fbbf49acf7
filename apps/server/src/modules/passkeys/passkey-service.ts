/**
 * Passkeys: adding one (a proven session), listing, renaming, removing, and signing in with one,
 * either alone (a discoverable credential) or as the second step after the password
 * (`PasskeyStep`, which login asks through auth/second-factor.ts). Every challenge is kept in
 * `passkey_challenges` and taken out by the one statement that uses it (repository.ts).
 */

import { USER_NOT_FOUND } from '@portal/contracts/messages';
import {
  PASSKEY_MESSAGES,
  type Passkey,
  type PasskeyAssertion,
  type PasskeyCreationOptions,
  type PasskeyRegisterRequest,
  type PasskeyRequestOptions,
  passkeyCreationOptionsSchema,
  passkeyRequestOptionsSchema,
} from '@portal/contracts/passkeys';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Clock } from '../../adapters/clock.js';
import { enforceLimit, type RateLimiter } from '../../adapters/rate-limit.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError, invalidInput, notFound, unauthorized } from '../../http/app-error.js';
import { findUserById } from '../accounts/index.js';
import type { PasskeyStep, SignInPolicy } from '../auth/index.js';
import type { EventClient, SecurityLog } from '../security-log/index.js';
import {
  consumeChallenge,
  deletePasskey,
  findPasskeyByCredentialId,
  hasPasskeys,
  insertChallenge,
  insertPasskey,
  listPasskeys,
  recordPasskeyUse,
  renamePasskey,
} from './repository.js';
import type { PasskeyChallengePurpose, PasskeyRow } from './schema.js';

/** A challenge not answered within this is refused (and purged by housekeeping). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * Challenges for a sign-in are handed to anyone, each one a row: a limit per address keeps a
 * flood from filling the table. A verification needs no limit: it spends its challenge.
 */
const SIGN_IN_OPTIONS_LIMIT = { limit: 30, windowMs: 60_000 } as const;

export interface PasskeyDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** The one sign-in policy (modules/auth/sign-in-policy.ts): the session after a passkey. */
  signInPolicy: SignInPolicy;
  securityLog: SecurityLog;
  rateLimiter: RateLimiter;
}

/** The relying party: the portal's host, and the page origins it accepts answers from. */
export function relyingParty(config: Config) {
  const url = new URL(config.PUBLIC_URL);
  return { id: url.hostname, origins: [url.origin], name: config.BRAND_NAME };
}

/** The challenge a browser's answer carries, read from its clientDataJSON (checked again later). */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 ? challenge : null;
  } catch {
    return null;
  }
}

function toPasskeyAnswer(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** A user id as WebAuthn's user handle: the UUID's 16 bytes. */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replaceAll('-', ''), 'hex'));
}

export class PasskeyService implements PasskeyStep {
  private readonly rp: ReturnType<typeof relyingParty>;

  constructor(private readonly deps: PasskeyDeps) {
    this.rp = relyingParty(deps.config);
  }

  // ------------------------------------------------------------------ the owner's list

  async list(userId: string): Promise<Passkey[]> {
    return (await listPasskeys(this.deps.db, userId)).map(toPasskeyAnswer);
  }

  async rename(userId: string, id: string, name: string): Promise<Passkey> {
    const row = await renamePasskey(this.deps.db, userId, id, name);
    if (!row) throw notFound(PASSKEY_MESSAGES.notFound);
    return toPasskeyAnswer(row);
  }

  /** Removes the user's passkey and logs it, in one transaction; another's answers 404. */
  async remove(userId: string, id: string, client: EventClient): Promise<void> {
    const { db, securityLog } = this.deps;
    await db.transaction(async (tx) => {
      if (!(await deletePasskey(tx, userId, id))) throw notFound(PASSKEY_MESSAGES.notFound);
      await securityLog.record(tx, userId, 'passkey_removed', client);
    });
  }

  /**
   * Deletes every passkey of the account in the caller's transaction, each logged: support's way
   * back for an owner who lost them all (a password sign-in asks for one). Answers how many.
   */
  async removeAllBySupport(tx: Executor, userId: string, client: EventClient): Promise<number> {
    const rows = await listPasskeys(tx, userId);
    for (const row of rows) {
      await deletePasskey(tx, userId, row.id);
      await this.deps.securityLog.record(tx, userId, 'passkey_removed', client);
    }
    return rows.length;
  }

  // ------------------------------------------------------------------ adding one

  /** Options for `navigator.credentials.create`; the user's passkeys are excluded. */
  async registrationOptions(userId: string): Promise<PasskeyCreationOptions> {
    const { db } = this.deps;
    const user = await findUserById(db, userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    const existing = await listPasskeys(db, userId);
    const options = await generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userID: userHandle(userId),
      userName: user.email || user.userName,
      userDisplayName: [user.firstName, user.lastName].filter(Boolean).join(' ') || user.userName,
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({
        id: row.credentialId,
        transports: row.transports,
      })),
      // A discoverable credential (sign-in without a login) that verifies its user (a PIN, a
      // fingerprint): only then is the passkey alone two factors.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.saveChallenge(options.challenge, 'registration', userId);
    // Through the contract's schema: the library's JSON types are looser than the answer's.
    return passkeyCreationOptionsSchema.parse(options);
  }

  /** Checks the browser's answer and keeps the passkey; the challenge is spent either way. */
  async register(
    userId: string,
    input: PasskeyRegisterRequest,
    client: EventClient,
  ): Promise<Passkey> {
    const { db, clock, securityLog } = this.deps;
    const refused = () =>
      invalidInput(PASSKEY_MESSAGES.registrationFailed, {
        response: [PASSKEY_MESSAGES.registrationFailed],
      });
    const challenge = challengeOf(input.response.response.clientDataJSON);
    if (!challenge) throw refused();
    const taken = await consumeChallenge(db, challenge, 'registration', clock.now());
    if (!taken || taken.userId !== userId) throw refused();

    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response: input.response as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origins,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch {
      throw refused();
    }
    if (!verification.verified) throw refused();
    const info = verification.registrationInfo;

    try {
      return await db.transaction(async (tx) => {
        const row = await insertPasskey(tx, {
          userId,
          credentialId: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
          counter: info.credential.counter,
          transports: info.credential.transports ?? input.response.response.transports ?? [],
          isBackupEligible: info.credentialDeviceType === 'multiDevice',
          isBackedUp: info.credentialBackedUp,
          name: input.name,
          createdAt: clock.now(),
        });
        await securityLog.record(tx, userId, 'passkey_added', client);
        return toPasskeyAnswer(row);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new AppError('conflict', PASSKEY_MESSAGES.alreadyAdded);
    }
  }

  // ------------------------------------------------------------------ signing in

  /** Options for a sign-in by a discoverable passkey: no login, no list of credentials. */
  async signInOptions(client: EventClient): Promise<PasskeyRequestOptions> {
    await enforceLimit(
      this.deps.rateLimiter,
      `passkey-sign-in:ip:${client.ipAddress}`,
      SIGN_IN_OPTIONS_LIMIT,
    );
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      userVerification: 'required',
    });
    await this.saveChallenge(options.challenge, 'sign_in', null);
    return passkeyRequestOptionsSchema.parse(options);
  }

  /**
   * A sign-in by the passkey alone: the challenge is spent, the signature checked, then the sign-in
   * policy lets the person in (a passkey that verified its user asks no second step; the session
   * and its log entry in one transaction, as a password sign-in's). Every refusal is the same 401.
   */
  async signIn(
    input: { response: PasskeyAssertion; rememberMe?: boolean | undefined },
    client: EventClient,
  ): Promise<{ token: string; userId: string }> {
    const { db, signInPolicy } = this.deps;
    const passkey = await this.verifyAssertion(input.response, 'sign_in', null, db);
    if (!passkey) throw unauthorized(PASSKEY_MESSAGES.signInFailed);
    const result = await signInPolicy.signIn({
      userId: passkey.userId,
      way: 'passkey',
      client,
      rememberMe: input.rememberMe,
    });
    // The policy asks a passkey sign-in nothing more (sign-in-policy.ts, `secondStepFor`).
    if (result.status !== 'signed_in') throw unauthorized(PASSKEY_MESSAGES.signInFailed);
    return { token: result.token, userId: passkey.userId };
  }

  // ------------------------------------------------------------------ the second step (PasskeyStep)

  async isEnabled(userId: string, executor: Executor = this.deps.db): Promise<boolean> {
    return hasPasskeys(executor, userId);
  }

  async secondStepOptions(userId: string): Promise<PasskeyRequestOptions> {
    const rows = await listPasskeys(this.deps.db, userId);
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      userVerification: 'preferred',
      allowCredentials: rows.map((row) => ({ id: row.credentialId, transports: row.transports })),
    });
    await this.saveChallenge(options.challenge, 'second_factor', userId);
    return passkeyRequestOptionsSchema.parse(options);
  }

  async verifySecondStep(userId: string, assertion: PasskeyAssertion): Promise<boolean> {
    return (await this.verifyAssertion(assertion, 'second_factor', userId, this.deps.db)) !== null;
  }

  // ------------------------------------------------------------------ shared

  private async saveChallenge(
    challenge: string,
    purpose: PasskeyChallengePurpose,
    userId: string | null,
  ) {
    const expiresAt = new Date(this.deps.clock.now().getTime() + PASSKEY_CHALLENGE_TTL_MS);
    await insertChallenge(this.deps.db, { challenge, purpose, userId, expiresAt });
  }

  /**
   * The passkey that signed this answer, or null. In order: the challenge is taken out (at most
   * one answer per challenge gets past here), the credential must be known (and the account's,
   * when the challenge was made for one), the library checks origin, relying party, signature,
   * user verification and counter, and the new counter is stored only if it went up.
   */
  private async verifyAssertion(
    assertion: PasskeyAssertion,
    purpose: PasskeyChallengePurpose,
    userId: string | null,
    executor: Executor,
  ): Promise<PasskeyRow | null> {
    const { clock } = this.deps;
    const challenge = challengeOf(assertion.response.clientDataJSON);
    if (!challenge) return null;
    const taken = await consumeChallenge(executor, challenge, purpose, clock.now());
    if (!taken || taken.userId !== userId) return null;
    const passkey = await findPasskeyByCredentialId(executor, assertion.id);
    if (!passkey) return null;
    if (userId !== null && passkey.userId !== userId) return null;
    // A discoverable credential names its account; it must be the one the passkey belongs to.
    const handle = assertion.response.userHandle;
    if (handle && handle !== Buffer.from(userHandle(passkey.userId)).toString('base64url')) {
      return null;
    }
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response: assertion as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origins,
        expectedRPID: this.rp.id,
        // Alone the passkey must have verified its user; as a second step it follows the password.
        requireUserVerification: purpose === 'sign_in',
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
      });
    } catch {
      return null;
    }
    if (!verification.verified) return null;
    const { newCounter, credentialBackedUp } = verification.authenticationInfo;
    const isRecorded = await recordPasskeyUse(
      executor,
      passkey.id,
      newCounter,
      credentialBackedUp,
      clock.now(),
    );
    return isRecorded ? passkey : null;
  }
}
