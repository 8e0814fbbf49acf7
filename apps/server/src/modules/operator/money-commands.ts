/**
 * Corrections of a balance: `credit` and `debit`, a ledger entry of kind `correction` whose
 * description is the reason (the customer's history shows «Корректировка» and the reason). Through
 * the ledger's own `postLedgerEntry`, in one transaction with the user's balance lock and the
 * record of the action. A debit never takes a balance below zero: the database refuses it.

 * `refund` (a payment's money back to the card) is in payment-commands.ts.
 */
import { randomUUID } from 'node:crypto';
import { AMOUNT_NOT_POSITIVE } from '@portal/contracts/messages';
import { InsufficientFundsError, lockBalances, postLedgerEntry } from '../payments/index.js';
import { recordOperatorAction } from './audit.js';
import { ACTION_OPTIONS, actorOf, type Command, resolveAccount } from './command.js';
import { money, type OperatorDeps, Refusal, UsageError } from './context.js';

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
      'Повтор с тем же --idempotency-key ничего не меняет: так безопасно повторить команду,',
      'ответ которой потерялся. Без ключа он создаётся и печатается.',
      '<аккаунт> — id, почта, никнейм или Telegram id.',
    ],
    options: MONEY_OPTIONS,
    async run(ctx, positionals, values) {
      const actor = actorOf(values, direction, true);
      if (positionals.length !== 2) {
        throw new UsageError('Нужны два аргумента: <аккаунт> <сумма>', direction);
      }
      const currency = values.currency;
      if (currency !== 'rub' && currency !== 'points') {
        throw new UsageError('Укажите валюту: --currency rub или --currency points', direction);
      }
      const amount = parseAmount(positionals[1]!, currency, direction);
      const key =
        typeof values['idempotency-key'] === 'string' && values['idempotency-key'].trim()
          ? values['idempotency-key'].trim()
          : randomUUID();
      if (key.length > 200) throw new UsageError('Ключ длиннее 200 символов', direction);
      const user = await resolveAccount(ctx, positionals[0]!);
      const outcome = await applyCorrection(ctx.deps, {
        userId: user.id,
        currency,
        amount: isCredit ? amount : -amount,
        reason: actor.reason!,
        operator: actor.operator,
        command: direction,
        idempotencyKey: key,
      });
      if (outcome.kind === 'duplicate') {
        ctx.out(`Уже выполнено ранее с ключом ${key}: ничего не изменено`);
        return;
      }
      ctx.out(
        `${isCredit ? 'Начислено' : 'Списано'} ${money(currency, amount)} (${user.userName}); ` +
          `баланс: ${money(currency, outcome.balance)}; ключ: ${key}`,
      );
    },
  };
}

export interface Correction {
  userId: string;
  currency: Currency;
  /** Signed: positive credits, negative debits. */
  amount: number;
  reason: string;
  operator: string;
  command: string;
  idempotencyKey: string;
}

/**
 * One correction: under the user's balance lock, the ledger entry (at most once per key), the
 * balance, and the record of the action, all in one transaction. A debit the balance cannot pay
 * is a `Refusal` and changes nothing.
 */
export async function applyCorrection(
  deps: Pick<OperatorDeps, 'db' | 'clock'>,
  correction: Correction,
): Promise<{ kind: 'applied'; balance: number } | { kind: 'duplicate' }> {
  const { userId, currency, amount } = correction;
  return deps.db.transaction(async (tx) => {
    const locked = await lockBalances(tx, userId);
    if (!locked) throw new Refusal('Аккаунт не найден');
    const before = currency === 'rub' ? locked.kopecks : locked.points;
    const now = deps.clock.now();
    let outcome: 'applied' | 'duplicate';
    try {
      outcome = await postLedgerEntry(tx, {
        userId,
        currency,
        amount,
        kind: 'correction',
        description: correction.reason,
        reference: `operator:${correction.operator}`,
        idempotencyKey: `operator:${correction.idempotencyKey}`,
        createdAt: now,
      });
    } catch (error) {
      if (!(error instanceof InsufficientFundsError)) throw error;
      throw new Refusal(
        `Списание отклонено: на балансе ${money(currency, before)}, списать ` +
          `${money(currency, -amount)} нельзя — баланс не уходит ниже нуля`,
      );
    }
    if (outcome === 'duplicate') return { kind: 'duplicate' as const };
    await recordOperatorAction(tx, {
      operator: correction.operator,
      command: correction.command,
      accountId: userId,
      reason: correction.reason,
      details: {
        currency,
        amount,
        idempotencyKey: correction.idempotencyKey,
        balanceBefore: before,
        balanceAfter: before + amount,
      },
      at: now,
    });
    return { kind: 'applied' as const, balance: before + amount };
  });
}

export const creditCommand = moneyCommand('credit');
export const debitCommand = moneyCommand('debit');
