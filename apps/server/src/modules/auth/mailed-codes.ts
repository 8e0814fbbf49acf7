import type { Mailer } from '../../adapters/mail.js';
import type { Letter } from '../../adapters/mail-letter.js';
import type { Executor } from '../../db/database.js';
import type { IssueCodeInput, IssuedCode, OneTimeCodes } from './one-time-codes.js';

/**
 * Issues a one-time code and queues its letter in the caller's transaction: a code is never
 * issued without its letter, nor a letter sent with a code that was not stored. The only way the
 * portal mails a code (registration, its resend, reset, «Это был не я», both steps of the e-mail
 * change, the proof of the owner, the password change); `src/architecture.test.ts` holds every
 * other file to it.
 *
 * `letter` gets the issued code (its `expiresAt` is the letter's expiry: the outbox drops a letter
 * it could not send in time). It may refuse (throw), and the transaction then drops the code too.
 * Throws the codes' `CodeResendRefused` (429) inside the resend countdown.
 */
export async function issueMailedCode(
  deps: { codes: OneTimeCodes; mail: Mailer },
  code: IssueCodeInput,
  letter: (issued: IssuedCode) => Letter | Promise<Letter>,
  executor: Executor,
): Promise<IssuedCode> {
  const issued = await deps.codes.issue(code, executor);
  await deps.mail.enqueue(await letter(issued), executor);
  return issued;
}
