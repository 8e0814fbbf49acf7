/**
 * A stuck letter sent again (`letters resend` on the command line, `POST …/letters/:id/resend`
 * on the pages): the letter is due now and a running portal's sender sends it within seconds.
 * Never a letter whose code expired or whose body was dropped (adapters/mail-operator.ts).
 */
import { maskEmail } from '../../adapters/mail-letter.js';
import { findLetter, resendLetter } from '../../adapters/mail-operator.js';
import type { AppDeps } from '../../deps.js';
import { notFound } from '../../http/app-error.js';
import { actedBy, recordOperatorAction, type StaffActor } from '../operator/index.js';
import { SupportRefusal } from './access-service.js';
import { STAFF_MESSAGES } from './messages.js';

export type LetterResendDeps = Pick<AppDeps, 'db' | 'clock'>;

export class LetterResendService {
  constructor(private readonly deps: LetterResendDeps) {}

  async resend(actor: StaffActor, letterId: string): Promise<void> {
    const { db, clock } = this.deps;
    const letter = await findLetter(db, letterId);
    if (!letter) throw notFound(STAFF_MESSAGES.letterNotFound);
    await db.transaction(async (tx) => {
      const now = clock.now();
      if (!(await resendLetter(tx, letterId, now))) {
        const why = [
          letter.status,
          letter.textBody ? '' : 'текст стёрт',
          letter.expiresAt && letter.expiresAt <= now ? 'срок кода истёк' : '',
        ].filter(Boolean);
        throw new SupportRefusal(`Письмо не отправить снова (состояние: ${why.join(', ')})`);
      }
      await recordOperatorAction(tx, {
        ...actedBy(actor),
        command: 'letters resend',
        accountId: null,
        details: {
          letterId,
          to: maskEmail(letter.toAddress),
          subject: letter.subject,
          status: letter.status,
          attempts: letter.attempts,
        },
        at: now,
      });
    });
  }
}
