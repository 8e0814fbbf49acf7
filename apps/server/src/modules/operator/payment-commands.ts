/** `reconcile`: ask the payment provider about one payment, or about every unsettled one, now. */
import { findPayment, reconcilePayment, reconcilePayments } from '../payments/index.js';
import { recordOperatorAction } from './audit.js';
import { ACTION_OPTIONS, actorOf, type Command } from './command.js';
import { Refusal, UsageError } from './context.js';

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
      const counts = await reconcilePayments(deps, log, { olderThanMs: 0, limit: 1000 });
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
    const payment = await findPayment(deps.db, positionals[0]!);
    if (!payment) throw new Refusal(`Платёж не найден: ${positionals[0]}`);
    const outcome = await reconcilePayment(deps, log, payment.id);
    const [after] = await Promise.all([findPayment(deps.db, payment.id)]);
    await recordOperatorAction(deps.db, {
      ...actor,
      command: 'reconcile',
      accountId: payment.userId,
      details: {
        paymentId: payment.id,
        outcome,
        statusBefore: payment.status,
        statusAfter: after?.status ?? null,
      },
      at: deps.clock.now(),
    });
    out(`Платёж ${payment.id}: ${OUTCOME_TEXTS[outcome]}`);
    out(`Статус: ${payment.status} → ${after?.status ?? '—'}`);
    if (outcome === 'failed' || outcome === 'no_provider' || outcome === 'other_provider') {
      throw new Refusal('Платёж не сверен');
    }
  },
};
