/**
 * Corrections of a balance: `credit` and `debit`, through the staff money service
 * (money-service.ts): a ledger entry of kind `correction` whose description is the reason (the
 * customer's history shows «Корректировка» and the reason), or above STAFF_APPROVAL_ROUBLES a
 * request another member approves (money-request-commands.ts). A debit never takes a balance
 * below zero: the database refuses it.

 * `refund` (a payment's money back to the card) is in payment-commands.ts.
 */
import { randomUUID } from 'node:crypto';
import { AMOUNT_NOT_POSITIVE } from '@portal/contracts/messages';
import {
  ACTION_OPTIONS,
  type Command,
  type ParsedValues,
  resolveAccount,
  staffActorOf,
} from './command.js';
import { money, type OperatorContext, UsageError, when } from './context.js';
import type { MoneyOutcome } from './money-service.js';

type Currency = 'rub' | 'points';

/** The largest correction the tool takes at once: a typo of three zeros is refused, not posted. */
const MAX_CORRECTION = { rub: 1_000_000 * 100, points: 10_000_000 } as const;

/** «150», «150.5», «150,50» roubles → kopecks; points are whole. */
export function parseAmount(text: string, currency: Currency, command: string): number {
  const trimmed = text.trim();
  const pattern = currency === 'rub' ? /^\d{1,9}([.,]\d{1,2})?$/ : /^\d{1,9}$/;
  if (!pattern.test(trimmed)) {
    throw new UsageError(
      currency === 'rub'
        ? `Сумма в рублях: положительное число, до двух знаков после запятой (получено «${text}»)`
        : `Сумма в баллах: целое положительное число (получено «${text}»)`,
      command,
    );
  }
  const [whole, fraction = ''] = trimmed.split(/[.,]/);
  const amount =
    currency === 'rub' ? Number(whole) * 100 + Number(fraction.padEnd(2, '0')) : Number(whole);
  if (amount <= 0) throw new UsageError(AMOUNT_NOT_POSITIVE, command);
  if (amount > MAX_CORRECTION[currency]) {
    throw new UsageError(
      `Сумма больше ${money(currency, MAX_CORRECTION[currency])} за одну команду`,
      command,
    );
  }
  return amount;
}

const MONEY_OPTIONS = {
  ...ACTION_OPTIONS,
  currency: { type: 'string' },
  'idempotency-key': { type: 'string' },
} as const;

function moneyCommand(direction: 'credit' | 'debit'): Command {
  const isCredit = direction === 'credit';
  return {
    name: direction,
    summary: isCredit
      ? 'начислить на баланс (корректировка)'
      : 'списать с баланса (корректировка; ниже нуля — никогда)',
    usage: [
      `${direction} <аккаунт> <сумма> --currency rub|points --operator <имя> --reason "…" [--idempotency-key <ключ>]`,
    ],
    help: [
      isCredit
        ? 'Начисляет сумму записью журнала «Корректировка»; клиент видит причину как её описание.'
        : 'Списывает сумму записью журнала «Корректировка»; клиент видит причину как её описание.',
      ...(isCredit
        ? []
        : ['Списание больше баланса отклоняется целиком: баланс не уходит ниже нуля.']),
      'Сумма в рублях — «150» или «150,50»; в баллах — целое число.',
      'Больше STAFF_APPROVAL_ROUBLES (по умолчанию 1 000 ₽; балл считается за рубль) — не',
      'выполняется сразу: создаётся запрос, его одобряет другой сотрудник (money-requests).',
      'Повтор с тем же --idempotency-key ничего не меняет: так безопасно повторить команду,',
      'ответ которой потерялся. Без ключа он создаётся и печатается.',
      '<аккаунт> — id, почта, никнейм или Telegram id.',
    ],
    options: MONEY_OPTIONS,
    async run(ctx, positionals, values) {
      const actor = staffActorOf(values, direction, true);
      if (positionals.length !== 2) {
        throw new UsageError('Нужны два аргумента: <аккаунт> <сумма>', direction);
      }
      const currency = values.currency;
      if (currency !== 'rub' && currency !== 'points') {
        throw new UsageError('Укажите валюту: --currency rub или --currency points', direction);
      }
      const amount = parseAmount(positionals[1]!, currency, direction);
      const key = idempotencyKeyOf(values, direction);
      const user = await resolveAccount(ctx, positionals[0]!);
      const outcome = await ctx.deps.staffMoney.correct(actor, {
        accountId: user.id,
        direction,
        currency,
        amount,
        idempotencyKey: key,
      });
      printMoneyOutcome(ctx, outcome, key, user.userName);
    },
  };
}

/** `--idempotency-key`, else a new one (printed, so the command can be repeated safely). */
export function idempotencyKeyOf(values: ParsedValues, command: string): string {
  const given =
    typeof values['idempotency-key'] === 'string' ? values['idempotency-key'].trim() : '';
  if (given.length > 200) throw new UsageError('Ключ длиннее 200 символов', command);
  return given || randomUUID();
}

/** What a money command did: done at once (its message), or the request made and its id. */
export function printMoneyOutcome(
  ctx: OperatorContext,
  outcome: MoneyOutcome,
  key: string,
  accountName?: string,
): void {
  if (outcome.status === 'pending') {
    ctx.out(
      `${outcome.isRepeat ? 'Запрос с этим ключом уже создан' : outcome.message}. ` +
        `Запрос: ${outcome.requestId}; действует до ${when(outcome.expiresAt)}`,
    );
    ctx.out(
      `Одобрить (другой сотрудник): npm run admin -- money-requests approve ${outcome.requestId} --operator <имя>`,
    );
    return;
  }
  if (outcome.isRepeat) {
    ctx.out(`Уже выполнено ранее с ключом ${key}: ничего не изменено`);
    return;
  }
  ctx.out(`${outcome.message}${accountName ? `; аккаунт: ${accountName}` : ''}; ключ: ${key}`);
}

export const creditCommand = moneyCommand('credit');
export const debitCommand = moneyCommand('debit');
