/**
 * Russian texts of staff money (money-service.ts) that only the server sends: the command line
 * prints them and the staff pages show them. The shared ones (STAFF_OWN_REQUEST,
 * STAFF_REQUEST_CLOSED) live in the contracts.
 */
import { MONEY_REQUEST_HOURS } from '@portal/contracts/staff';
import type { SinglePaymentOutcome } from '../payments/index.js';
import { money, roubles } from './context.js';

type Currency = 'rub' | 'points';

export const STAFF_MONEY_FORBIDDEN =
  'Возвраты, корректировки и сверку платежей делают сотрудники финансов и администраторы';
export const MONEY_ACCOUNT_NOT_FOUND = 'Аккаунт не найден';
export const MONEY_REQUEST_NOT_FOUND = 'Запрос не найден';
export const MONEY_AMOUNT_INVALID =
  'Сумма должна быть целым положительным числом копеек или баллов';

export const DEBIT_REFUSED = (currency: Currency, balance: number, amount: number) =>
  `Списание отклонено: на балансе ${money(currency, balance)}, списать ` +
  `${money(currency, amount)} нельзя — баланс не уходит ниже нуля`;

export const CORRECTION_DONE = (
  direction: 'credit' | 'debit',
  currency: Currency,
  amount: number,
  balance: number,
) =>
  `${direction === 'credit' ? 'Начислено' : 'Списано'} ${money(currency, amount)}; ` +
  `баланс: ${money(currency, balance)}`;
export const ALREADY_DONE = 'Уже выполнено ранее с этим ключом: ничего не изменено';

export const REFUND_DONE = (amountKopecks: number, totalKopecks: number) =>
  `Возвращено ${roubles(amountKopecks)}; всего возвращено по платежу: ${roubles(totalKopecks)}`;
export const REFUND_UNANSWERED = (amountKopecks: number) =>
  `Провайдер не ответил: ${roubles(amountKopecks)} списано и помечено «неизвестно» — ` +
  'проверьте платёж у банка';

export const REQUEST_MADE = (thresholdRoubles: number) =>
  `Сумма больше ${roubles(thresholdRoubles * 100)}: создан запрос, его одобряет другой ` +
  `сотрудник финансов в течение ${MONEY_REQUEST_HOURS} часов`;
export const REQUEST_DECLINED = 'Запрос отклонён: деньги не двигались';

/** What asking the bank about one payment came to (`staffMoney.reconcile`). */
const RECONCILE_OUTCOMES: Record<SinglePaymentOutcome, string> = {
  unchanged: 'провайдер подтвердил то, что уже записано: ничего не изменилось',
  changed: 'ответ провайдера применён (статус, зачисление или возврат изменились)',
  abandoned: 'платёж закрыт как брошенный',
  failed: 'провайдер не ответил или ответ не применён; подробности в журнале портала',
  unknown: 'такого платежа нет',
  settled: 'платёж уже завершён, спрашивать нечего',
  other_provider: 'платёж проведён через другого провайдера, чем настроен сейчас',
  not_started:
    'платёж не дошёл до провайдера (старт прерван); его закроет сверка незавершённых платежей, когда истечёт время старта',
  no_provider: 'платёжный провайдер не настроен',
};
export const RECONCILED = (paymentId: string, outcome: SinglePaymentOutcome) =>
  `Платёж ${paymentId}: ${RECONCILE_OUTCOMES[outcome]}`;
export const NO_PROVIDER = RECONCILE_OUTCOMES.no_provider;
