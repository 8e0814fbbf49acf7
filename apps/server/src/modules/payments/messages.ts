import { PAYMENT_REQUEST_FAILED } from '@portal/contracts/messages';

// Russian texts of the wallet the server sends (ours: the product words only the web's fallbacks).

const roubles = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });

export const formatRoubles = (value: number) => `${roubles.format(value)} ₽`;

export const TOP_UP_TOO_SMALL = (min: number) =>
  `Минимальная сумма пополнения — ${formatRoubles(min)}`;
export const TOP_UP_TOO_LARGE = (max: number) =>
  `Максимальная сумма пополнения — ${formatRoubles(max)}`;
export const TOP_UP_SBP_TOO_SMALL = (min: number) =>
  `Минимальная сумма пополнения через СБП — ${formatRoubles(min)}`;
export const PAYMENT_CREATED = 'Платёж создан, переходим к оплате';
/** Starts with the text the web app shows for a failed payment request without a message. */
export const PAYMENT_PROVIDER_UNAVAILABLE = `${PAYMENT_REQUEST_FAILED} Платёжный сервис временно недоступен, попробуйте позже.`;
export const IDEMPOTENCY_KEY_REUSED =
  'Этот ключ идемпотентности уже использован для другого платежа';
export const PAYMENT_IN_PROGRESS = 'Платёж уже создаётся, повторите запрос через несколько секунд';
export const IDEMPOTENCY_KEY_INVALID =
  'Idempotency-Key: от 1 до 128 символов: латиница, цифры, «-», «_», «.», «:»';

export const NOTIFICATION_BAD_TOKEN = 'Неверная подпись уведомления';
export const NOTIFICATION_AMOUNT_MISMATCH = 'Сумма не совпадает с суммой платежа';
export const NOTIFICATION_PAYMENT_MISMATCH = 'Идентификатор платежа не совпадает';

export const TOP_UP_BY_CARD = 'Пополнение баланса картой';
export const TOP_UP_BY_SBP = 'Пополнение баланса через СБП';
export const TOP_UP_REFUND = 'Возврат пополнения баланса';

export const REFUND_NOT_PAID = 'Этот платёж не зачислен на баланс: возвращать нечего';
export const REFUND_NOTHING_LEFT =
  'Возвращать нечего: платёж уже возвращён или его деньги потрачены';
export const REFUND_TOO_LARGE = (available: number) =>
  `Можно вернуть не больше ${formatRoubles(available / 100)}: столько от этого платежа ещё не потрачено`;
export const REFUND_AMOUNT_INVALID = 'Сумма возврата — целое число копеек больше нуля';
export const REFUND_PROVIDER_REFUSED =
  'Банк отказал в возврате. Деньги остались на балансе клиента';
export const REFUND_KEY_REUSED = 'Этот ключ идемпотентности уже использован для другого возврата';
export const REFUND_RETURNED = 'Возврат не выполнен банком: деньги возвращены на баланс';
export const RECEIPT_NOT_FOUND = 'Чек не найден';
export const REFUND_NO_PROVIDER = 'Возврат недоступен: платёжный провайдер не настроен';
export const REFUND_OTHER_PROVIDER =
  'Платёж прошёл через другой платёжный провайдер: вернуть его через нынешний нельзя';
