/**
 * Money moved by two people: `money-requests [--all]` lists the requests, `approve` and
 * `decline` decide one, through the staff money service (money-service.ts), as the staff pages do.
 */
import { ACTION_OPTIONS, type Command, staffActorOf } from './command.js';
import { money, table, UsageError, when } from './context.js';
import type { MoneyRequestView } from './money-service.js';

const KIND_NAMES = { credit: 'начисление', debit: 'списание', refund: 'возврат' } as const;
const STATUS_NAMES = {
  pending: 'ждёт',
  approved: 'одобрен',
  declined: 'отклонён',
  expired: 'истёк',
} as const;

export const moneyRequestsCommand: Command = {
  name: 'money-requests',
  summary: 'запросы денег выше порога: список, одобрить, отклонить',
  usage: [
    'money-requests [--all]',
    'money-requests approve <id запроса> --operator <имя> [--reason "…"]',
    'money-requests decline <id запроса> --operator <имя> --reason "…"',
  ],
  help: [
    'Возврат или корректировка больше STAFF_APPROVAL_ROUBLES (по умолчанию 1 000 ₽; балл',
    'считается за рубль) становится запросом: деньги двигаются, только когда его одобрит',
    'другой сотрудник. Запрос действует 24 часа, потом истекает.',
    'Без аргументов — ждущие запросы, старые первыми; --all — последние 100 в любом состоянии.',
    'approve: деньги двигаются сразу и один раз. Свой запрос одобряет другой сотрудник',
    '(тот же --operator — это вы). Списание, которое баланс уже не покрывает, отклоняется, а',
    'запрос продолжает ждать; возврат, который отклонил банк, — тоже.',
    'decline: деньги не двигаются; свой запрос так можно отозвать.',
  ],
  options: { ...ACTION_OPTIONS, all: { type: 'boolean' } },
  async run(ctx, positionals, values) {
    const { deps, out } = ctx;
    const [action, id, ...extra] = positionals;
    if (action === undefined) {
      const views = await deps.staffMoney.list({ all: values.all === true });
      if (views.length === 0) {
        out(values.all ? 'Запросов нет' : 'Ждущих запросов нет');
        return;
      }
      for (const line of requestTable(views)) out(line);
      return;
    }
    if (values.all) throw new UsageError('--all только для списка', 'money-requests');
    if (action !== 'approve' && action !== 'decline') {
      throw new UsageError('Укажите approve <id> или decline <id>', 'money-requests');
    }
    if (!id) throw new UsageError('Не указан id запроса', 'money-requests');
    if (extra.length > 0) {
      throw new UsageError(`Лишние аргументы: ${extra.join(' ')}`, 'money-requests');
    }
    const actor = staffActorOf(values, 'money-requests', action === 'decline');
    const outcome =
      action === 'approve'
        ? await deps.staffMoney.approve(actor, id)
        : await deps.staffMoney.decline(actor, id);
    out(`Запрос ${id}: ${outcome.message}`);
  },
};

function requestTable(views: MoneyRequestView[]): string[] {
  return table(
    ['id', 'вид', 'аккаунт', 'сумма', 'причина', 'кто', 'создан', 'до', 'состояние', 'решил'],
    views.map(({ row, status, accountEmail }) => [
      row.id,
      KIND_NAMES[row.kind],
      accountEmail || row.accountId,
      money(row.currency, row.amount),
      row.reason.slice(0, 60),
      row.requestedBy,
      when(row.requestedAt),
      when(row.expiresAt),
      STATUS_NAMES[status],
      row.decidedBy,
    ]),
  );
}
