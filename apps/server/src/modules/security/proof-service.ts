import { USER_NOT_FOUND } from '@portal/contracts/messages';
import type { ProofMethod, ProofRequest } from '@portal/contracts/security';
import type { AppDeps } from '../../deps.js';
import { invalidInput, notFound } from '../../http/app-error.js';
import { findUserById, type UserRow } from '../accounts/index.js';
import { codeRefusal, proofExpiry, verifyPassword } from '../auth/index.js';
import type { EventClient } from '../security-log/index.js';
import { wrongCode } from '../two-factor/index.js';
import { proofCodeLetter } from './letters.js';
import { mailAccountCode } from './mail-account-code.js';
import { SECURITY_MESSAGES } from './messages.js';

const PROOF_PURPOSE = 'proof';

export type ProofDeps = Pick<
  AppDeps,
  'config' | 'db' | 'clock' | 'codes' | 'mail' | 'sessions' | 'twoFactor' | 'loginThrottle'
>;

type Session = { id: string; userId: string };

/**
 * A fresh proof of the owner for the session that asks (modules/auth/recent-proof.ts): the
 * routes that change a factor accept the session for RECENT_PROOF_MINUTES afterwards.
 */
export class ProofService {
  constructor(private readonly deps: ProofDeps) {}

  /** How this account can prove its owner, and until when this session is proven (null: not now). */
  async status(session: Session): Promise<{ methods: ProofMethod[]; provenUntil: Date | null }> {
    const { twoFactor, sessions, clock } = this.deps;
    const user = await this.requireUser(session.userId);
    const methods: ProofMethod[] = [];
    if (user.passwordHash) methods.push('password');
    if (await twoFactor.isEnabled(user.id)) methods.push('authenticator');
    methods.push('email');
    const provenAt = await sessions.provenAt(session.id);
    const until = provenAt ? proofExpiry(provenAt) : null;
    return { methods, provenUntil: until && until > clock.now() ? until : null };
  }

  async sendEmailCode(userId: string): Promise<void> {
    const user = await this.requireUser(userId);
    await mailAccountCode(this.deps, user, PROOF_PURPOSE, proofCodeLetter);
  }

  /** Checks the proof and stamps the session; answers until when it is proven. */
  async prove(session: Session, proof: ProofRequest, client: EventClient): Promise<Date> {
    const user = await this.requireUser(session.userId);
    return proofExpiry(await this.checkProof(user, session.id, proof, client));
  }

  /**
   * Every check of a proof goes through here; answers when the session was stamped. The password
   * and the authenticator's code are checked under the account's sign-in lock, exactly like a
   * sign-in: counted before the check, a waiting account gets 429 even for the right answer. A
   * mailed code has limits of its own (5 tries a code, the resend countdown, 6 letters an hour),
   * so the owner can still prove themselves while someone hammers the password.
   */
  private async checkProof(
    user: UserRow,
    sessionId: string,
    proof: ProofRequest,
    client: EventClient,
  ) {
    const { db, codes, sessions, twoFactor, loginThrottle } = this.deps;
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
        if (!(await twoFactor.verifySecondFactor(user.id, proof.code ?? '', client, tx)))
          throw wrongCode();
        return sessions.markProven(sessionId, tx);
      });
    });
  }

  private async requireUser(userId: string) {
    const user = await findUserById(this.deps.db, userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  }
}
