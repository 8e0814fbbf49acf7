import type { Mailer } from '../../adapters/mail.js';
import type { Letter } from '../../adapters/mail-letter.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { OneTimeCodes } from '../auth/index.js';

/** A letter that carries a one-time code (`letters.ts`). */
type CodeLetter = (
  config: Config,
  input: { to: string; firstName: string; code: string; expiresAt: Date },
) => Letter;

/**
 * Issues the account's one-time code of `purpose` and queues its letter in one transaction: a code
 * is never issued without its letter, nor a letter sent with a code that was not stored. Throws the
 * codes' `CodeResendRefused` (429) inside the resend countdown.
 */
export async function mailAccountCode(
  deps: { db: Db; codes: OneTimeCodes; mail: Mailer; config: Config },
  user: { id: string; email: string; firstName: string },
  purpose: string,
  letter: CodeLetter,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const issued = await deps.codes.issue({ purpose, subject: user.id, userId: user.id }, tx);
    await deps.mail.enqueue(
      letter(deps.config, {
        to: user.email,
        firstName: user.firstName,
        code: issued.code,
        expiresAt: issued.expiresAt,
      }),
      tx,
    );
  });
}
