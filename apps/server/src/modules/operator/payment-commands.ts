/**
 * Payments: `reconcile` asks the payment provider about one payment, or about every unsettled one,
 * now; `refund` gives a paid top-up's money back to the card.
 */
import { actedBy, recordOperatorAction } from './audit.js';
import { ACTION_OPTIONS, type Command, staffActorOf } from './command.js';
import { Refusal, UsageError } from './context.js';
import { NO_PROVIDER } from './messages.js';
import { idempotencyKeyOf, parseAmount, printMoneyOutcome } from './money-commands.js';

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
    const actor = staffActorOf(values, 'reconcile', false);
    const { deps, log, out } = ctx;
    if (values.all) {
      if (positionals.length > 0) throw new UsageError('--all без id платежа', 'reconcile');
      if (!deps.payments.provider) throw new Refusal(NO_PROVIDER);
      const counts = await deps.payments.reconciliation.run(log, { olderThanMs: 0, limit: 1000 });
      await recordOperatorAction(deps.db, {
        ...actedBy(actor),
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
    const reconciled = await deps.staffMoney.reconcile(actor, positionals[0]!);
    out(reconciled.message);
    out(`Статус: ${reconciled.payment.status} → ${reconciled.statusAfter ?? '—'}`);
    if (!reconciled.isReconciled) throw new Refusal('Платёж не сверен');
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
    const actor = staffActorOf(values, 'refund', true);
    if (positionals.length < 1 || positionals.length > 2) {
      throw new UsageError('Нужны аргументы: <id платежа> [<сумма>]', 'refund');
    }
    const amountKopecks =
      positionals[1] === undefined ? undefined : parseAmount(positionals[1], 'rub', 'refund');
    const key = idempotencyKeyOf(values, 'refund');
    const outcome = await ctx.deps.staffMoney.refund(actor, {
      paymentId: positionals[0]!,
      amountKopecks,
      idempotencyKey: key,
    });
    printMoneyOutcome(ctx, outcome, key);
  },
};
