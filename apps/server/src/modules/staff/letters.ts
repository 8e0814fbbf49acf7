import { ONE_TIME_CODE_TTL_MINUTES } from '@portal/contracts/constants';
import { composeLetter, type Letter } from '../../adapters/mail-letter.js';
import type { Config } from '../../config.js';

type LetterConfig = Pick<Config, 'BRAND_NAME' | 'PUBLIC_URL'>;

/**
 * The code the customer reads out to support before support resets the account's second factors
 * (access-service.ts): proof that the owner of the mailbox asks for it.
 */
export function factorResetCodeLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; code: string; expiresAt: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'код для службы поддержки',
    greeting: input.firstName.trim() ? `Здравствуйте, ${input.firstName.trim()}!` : 'Здравствуйте!',
    paragraphs: [
      'Вы попросили службу поддержки сбросить второй шаг входа (приложение-аутентификатор и ключи доступа). Назовите сотруднику этот код:',
    ],
    code: input.code,
    expiresAt: input.expiresAt,
    afterCode: [`Код действует ${ONE_TIME_CODE_TTL_MINUTES} минут.`],
    footer:
      'Если вы ничего не просили, никому не называйте код: без него поддержка ничего не изменит.',
  });
}
