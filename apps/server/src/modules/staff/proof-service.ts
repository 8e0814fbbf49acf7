/**
 * The staff's own proof: a passkey or the authenticator's code (never a password nor a mailed
 * code, which prove a customer), stamped on the session in `staff_proofs`. The guard (guard.ts)
 * lets a member work for STAFF_PROOF_MINUTES after it.
 */
import type { PasskeyAssertion, PasskeyRequestOptions } from '@portal/contracts/passkeys';
import type { StaffMeAnswer } from '@portal/contracts/staff';
import type { Executor } from '../../db/database.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import type { EventClient } from '../security-log/index.js';
import { wrongCode } from '../two-factor/index.js';
import { STAFF_PROOF_WINDOW_MS, type StaffMember } from './guard.js';
import { upsertStaffProof } from './repository.js';

/** The refusal of a passkey's answer, as the passkey sign-in words its own. */
const PASSKEY_PROOF_FAILED = 'Не удалось подтвердить ключом доступа. Попробуйте ещё раз';

export type StaffProofDeps = Pick<
  AppDeps,
  'db' | 'clock' | 'loginThrottle' | 'twoFactor' | 'passkeys'
>;

export class StaffProofService {
  constructor(private readonly deps: StaffProofDeps) {}

  async me(member: StaffMember): Promise<StaffMeAnswer> {
    const { twoFactor, passkeys } = this.deps;
    const proofMethods: StaffMeAnswer['proofMethods'] = [];
    if (await passkeys.isEnabled(member.userId)) proofMethods.push('passkey');
    if (await twoFactor.isEnabled(member.userId)) proofMethods.push('authenticator');
    return {
      userId: member.userId,
      username: member.username,
      role: member.role,
      proofMethods,
      provenUntil: member.provenUntil?.toISOString() ?? null,
    };
  }

  /**
   * The authenticator's code (or one of its recovery codes), checked under the account's sign-in
   * lock as a sign-in's is: counted first, a waiting account gets 429 even for the right code.
   */
  async proveByCode(member: StaffMember, code: string, client: EventClient): Promise<Date> {
    const { db, loginThrottle, twoFactor } = this.deps;
    return loginThrottle.guard(member.userId, () =>
      db.transaction(async (tx) => {
        if (!(await twoFactor.verifySecondFactor(member.userId, code, client, tx))) {
          throw wrongCode();
        }
        return this.stamp(member, tx);
      }),
    );
  }

  /** WebAuthn options naming the member's passkeys (the sign-in's second step's own). */
  passkeyOptions(member: StaffMember): Promise<PasskeyRequestOptions> {
    return this.deps.passkeys.secondStepOptions(member.userId);
  }

  /** The browser's answer to `passkeyOptions`; its challenge is spent whatever the outcome. */
  async proveByPasskey(member: StaffMember, assertion: PasskeyAssertion): Promise<Date> {
    if (!(await this.deps.passkeys.verifySecondStep(member.userId, assertion))) {
      throw new AppError('invalid_input', PASSKEY_PROOF_FAILED, {
        errors: { credential: [PASSKEY_PROOF_FAILED] },
      });
    }
    return this.stamp(member, this.deps.db);
  }

  private async stamp(member: StaffMember, executor: Executor) {
    const provenAt = this.deps.clock.now();
    await upsertStaffProof(executor, {
      sessionId: member.sessionId,
      userId: member.userId,
      provenAt,
    });
    return new Date(provenAt.getTime() + STAFF_PROOF_WINDOW_MS);
  }
}
