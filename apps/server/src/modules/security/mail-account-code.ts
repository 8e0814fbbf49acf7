import type { Mailer } from '../../adapters/mail.js';
import type { Letter } from '../../adapters/mail-letter.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { issueMailedCode, type OneTimeCodes } from '../auth/index.js';

/** A letter that carries a one-time code (`letters.ts`). */
type CodeLetter = (
  config: Config,
  input: { to: string; firstName: string; code: string; expiresAt: Date },
) => Letter;

/**
 * Issues the account's one-time code of `purpose` and queues its letter in one transaction of its
 * own (`issueMailedCode`, modules/auth/mailed-codes.ts). Throws the codes' `CodeResendRefused`
 * (429) inside the resend countdown.
 */
export async function mailAccountCode(
  deps: { db: Db; codes: OneTimeCodes; mail: Mailer; config: Config },
  user: { id: string; email: string; firstName: string },
  purpose: string,
  letter: CodeLetter,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await issueMailedCode(
      deps,
      { purpose, subject: user.id, userId: user.id },
      ({ code, expiresAt }) =>
        letter(deps.config, { to: user.email, firstName: user.firstName, code, expiresAt }),
      tx,
    );
  });
}
