import type { CodeLetterInput, Letter, LetterConfig } from '../../adapters/mail-letter.js';
import { codeLetter } from '../../adapters/mail-letter.js';

/**
 * The code the customer reads out to support before support resets the account's second factors
 * (access-service.ts): proof that the owner of the mailbox asks for it.
 */
export function factorResetCodeLetter(config: LetterConfig, input: CodeLetterInput): Letter {
  return codeLetter(config, input, {
    subject: 'код для службы поддержки',
    paragraphs: [
      'Вы попросили службу поддержки сбросить второй шаг входа (приложение-аутентификатор и ключи доступа). Назовите сотруднику этот код:',
    ],
    footer:
      'Если вы ничего не просили, никому не называйте код: без него поддержка ничего не изменит.',
  });
}
