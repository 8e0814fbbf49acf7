/**
 * Payments: `reconcile` asks the payment provider about one payment, or about every unsettled one,
 * now; `refund` gives a paid top-up's money back to the card.
 */
import { recordOperatorAction } from './audit.js';
import { ACTION_OPTIONS, actorOf, type Command } from './command.js';
import { Refusal, UsageError } from './context.js';
import {
  idempotencyKeyOf,
  moneyActorOf,
  parseAmount,
  printMoneyOutcome,
} from './money-commands.js';

const OUTCOME_TEXTS = {
  unchanged: 'провайдер подтвердил то, что уже записано: ничего не изменилось',
  changed: 'ответ провайдера применён (статус, зачисление или возврат изменились)',
  abandoned: 'платёж закрыт как брошенный',
  failed: 'провайдер не ответил или ответ не применён; подробности в журнале выше',
  unknown: 'такого платежа нет',
  settled: 'платёж уже завершён, спрашивать нечего',
  other_provider: 'платёж проведён через другого провайдера, чем настроен сейчас',
  not_started:
    'платёж не дошёл до провайдера (старт прерван); его закроет reconcile --all, когда истечёт время старта',
  no_provider: 'платёжный провайдер не настроен',
} as const;

export const reconcileCommand: Command = {
  name: 'reconcile',
  summary: 'сверить платёж (или все незавершённые) с провайдером и применить ответ',
  usage: [
    'reconcile <id платежа> --operator <имя> [--reason "…"]',
    'reconcile --all --operator <имя> [--reason "…"]',
  ],
  help: [
    'Спрашивает у провайдера состояние платежа (GetState) и применяет ответ так же, как',
    'уведомление: зачисляет не больше одного раза. --all — то же, что периодическая сверка',
    '(PAYMENT_RECONCILE_INTERVAL_SECONDS), но сразу и без выдержки в 2 минуты.',
  ],
  options: { ...ACTION_OPTIONS, all: { type: 'boolean' } },
  async run(ctx, positionals, values) {
    const actor = actorOf(values, 'reconcile', false);
    const { deps, log, out } = ctx;
    if (values.all) {
      if (positionals.length > 0) throw new UsageError('--all без id платежа', 'reconcile');
      if (!deps.payments.provider) throw new Refusal(OUTCOME_TEXTS.no_provider);
      const counts = await deps.payments.reconciliation.run(log, { olderThanMs: 0, limit: 1000 });
      await recordOperatorAction(deps.db, {
        ...actor,
        command: 'reconcile --all',
        accountId: null,
        details: counts,
        at: deps.clock.now(),
      });
      out(
        `Проверено: ${counts.checked}; изменилось: ${counts.changed}; закрыто брошенных: ` +
          `${counts.abandoned}; не удалось: ${counts.failed}`,
      );
      if (counts.failed > 0) throw new Refusal('Часть платежей сверить не удалось');
      return;
    }
    if (positionals.length !== 1) {
      throw new UsageError('Укажите один id платежа или --all', 'reconcile');
    }
    const { payment, outcome, statusAfter } = await deps.staffMoney.reconcile(
      moneyActorOf(values, 'reconcile', false),
      positionals[0]!,
      actor.reason,
    );
    out(`Платёж ${payment.id}: ${OUTCOME_TEXTS[outcome]}`);
    out(`Статус: ${payment.status} → ${statusAfter ?? '—'}`);
    if (outcome === 'failed' || outcome === 'no_provider' || outcome === 'other_provider') {
      throw new Refusal('Платёж не сверен');
    }
  },
};

export const refundCommand: Command = {
  name: 'refund',
  summary: 'вернуть деньги за пополнение на карту (целиком или часть)',
  usage: ['refund <id платежа> [<сумма>] --operator <имя> --reason "…" [--idempotency-key <ключ>]'],
  help: [
    'Возвращает пополнение через провайдера (Cancel с чеком возврата) и списывает возвращённое',
    'с рублёвого баланса записью «Возврат»; клиент получает письмо. Без суммы — всё, что ещё',
    'можно вернуть: не больше невозвращённой части платежа и не больше рублёвого баланса',
    '(потраченное на услуги и баллы не возвращаются).',
    'Если провайдер не ответил, деньги остаются списанными, а возврат помечен «неизвестно»:',
    'проверьте платёж у банка, прежде чем повторять. Повтор с тем же --idempotency-key',
    'отвечает первым возвратом и ничего не возвращает второй раз.',
    'Возврат больше STAFF_APPROVAL_ROUBLES (по умолчанию 1 000 ₽) не выполняется сразу: создаётся',
    'запрос на эту сумму, его одобряет другой сотрудник (money-requests).',
  ],
  options: { ...ACTION_OPTIONS, 'idempotency-key': { type: 'string' } },
  async run(ctx, positionals, values) {
    const actor = moneyActorOf(values, 'refund', true);
    if (positionals.length < 1 || positionals.length > 2) {
      throw new UsageError('Нужны аргументы: <id платежа> [<сумма>]', 'refund');
    }
    const amountKopecks =
      positionals[1] === undefined ? undefined : parseAmount(positionals[1], 'rub', 'refund');
    const key = idempotencyKeyOf(values, 'refund');
    const outcome = await ctx.deps.staffMoney.refund(actor, {
      paymentId: positionals[0]!,
      amountKopecks,
      reason: actor.reason,
      idempotencyKey: key,
    });
    printMoneyOutcome(ctx, outcome, key);
  },
};
