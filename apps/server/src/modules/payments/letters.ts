import { PAGES } from '@portal/contracts/page-paths';
import type { Letter, LetterConfig } from '../../adapters/mail-letter.js';
import { composeLetter, greetingOf } from '../../adapters/mail-letter.js';
import { formatRoubles } from './messages.js';

const moscowDate = new Intl.DateTimeFormat('ru-RU', {
  timeZone: 'Europe/Moscow',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** Told to the customer in the transaction that records the provider's refund (refund.ts). */
export function refundLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; amountKopecks: number; paidAt: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'возврат пополнения',
    greeting: greetingOf(input.firstName),
    paragraphs: [
      // The date ends with «г.», so it stands inside the sentence, never before its full stop.
      `Мы вернули ${formatRoubles(input.amountKopecks / 100)} из пополнения от ${moscowDate.format(input.paidAt)} и списали эту сумму с баланса аккаунта.`,
      'Деньги вернутся на карту или счёт, с которых вы платили; когда именно, зависит от вашего банка.',
      'Чек возврата появится в истории операций, как только его пробьёт касса.',
    ],
    action: {
      label: 'История операций',
      url: new URL(PAGES.walletHistory, config.PUBLIC_URL).toString(),
    },
  });
}
