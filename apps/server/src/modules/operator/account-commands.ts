/** Reads: `find` and `show`. They change nothing and record nothing. */
import { SECURITY_EVENT_TEXTS } from '@portal/contracts/security-log';
import { STAFF_PAGE_SIZE } from '@portal/contracts/staff';
import { PARTIAL_MIN_LENGTH } from '../accounts/index.js';
import { loginCounterKeys } from '../auth/index.js';
import { recentLedgerEntries, recentPayments } from '../payments/index.js';
import { listServicesOf } from '../servers/index.js';
import { recentOperatorActions } from './audit.js';
import { accountState, type Command, hitTable, resolveAccount, single } from './command.js';
import { fields, money, points, Refusal, roubles, table, UsageError, when } from './context.js';

export const findCommand: Command = {
  name: 'find',
  summary:
    'найти аккаунт по почте, никнейму, id, телефону, Telegram id, id платежа или части почты и имени',
  usage: [
    'find <почта|никнейм|id|телефон|telegram id|id платежа|часть почты или имени> [--page N]',
  ],
  help: [
    'Сначала точные совпадения: id, почта и никнейм (без учёта регистра), телефон (+7…, 8…,',
    'с пробелами и скобками), Telegram id, Yandex ID и аккаунт, которому принадлежит платёж',
    'с этим id (нашим или id платежа у провайдера). Затем аккаунты, в почте, никнейме или имени',
    `которых есть каждое слово запроса (слово от ${PARTIAL_MIN_LENGTH} знаков). Новые аккаунты первыми,`,
    `по ${STAFF_PAGE_SIZE} на странице (--page N): то же, что находит страница поиска сотрудников.`,
  ],
  options: { page: { type: 'string' } },
  async run(ctx, positionals, values) {
    const query = single(positionals, 'что искать', 'find');
    const page = values.page === undefined ? 1 : Number(values.page);
    if (!Number.isInteger(page) || page < 1) {
      throw new UsageError('--page: целое число от 1', 'find');
    }
    // One more than a page: whether there is a next one.
    const hits = await ctx.deps.accountSearch.search(ctx.deps.db, query, {
      limit: STAFF_PAGE_SIZE + 1,
      offset: (page - 1) * STAFF_PAGE_SIZE,
    });
    if (hits.length === 0) throw new Refusal(`Ничего не найдено: ${query}`);
    for (const line of hitTable(hits.slice(0, STAFF_PAGE_SIZE))) ctx.out(line);
    if (hits.length > STAFF_PAGE_SIZE) ctx.out(`Это не все: следующие — --page ${page + 1}`);
  },
};

const DEFAULT_LEDGER_LINES = 20;

export const showCommand: Command = {
  name: 'show',
  summary: 'всё об аккаунте: профиль, сеансы, события безопасности, балансы, платежи, журнал',
  usage: ['show <аккаунт> [--ledger N]'],
  help: [
    'Профиль, блокировка и ожидание входа после неверных паролей, открытые сеансы, последние',
    'события журнала безопасности, балансы, последние платежи, последние записи журнала',
    `операций (--ledger N, по умолчанию ${DEFAULT_LEDGER_LINES}), услуги и последние действия`,
    'поддержки с аккаунтом.',
    '<аккаунт> — id, почта, никнейм или Telegram id.',
  ],
  options: { ledger: { type: 'string' } },
  async run(ctx, positionals, values) {
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'show'));
    const ledgerLines = values.ledger === undefined ? DEFAULT_LEDGER_LINES : Number(values.ledger);
    if (!Number.isInteger(ledgerLines) || ledgerLines < 1 || ledgerLines > 1000) {
      throw new UsageError('--ledger: целое число от 1 до 1000', 'show');
    }
    const { deps, out } = ctx;
    const throttle = await deps.loginThrottle.state(loginCounterKeys.account(user.id));
    const now = deps.clock.now();
    const isWaiting = throttle?.lockedUntil && throttle.lockedUntil > now;

    out('Профиль');
    for (const line of fields([
      ['id', user.id],
      ['никнейм', user.userName],
      ['почта', user.email],
      ['имя', [user.lastName, user.firstName, user.middleName].filter(Boolean).join(' ')],
      ['телефон', user.phone],
      ['telegram', user.telegramId],
      ['яндекс id', user.yandexId],
      ['создан', when(user.createdAt)],
      ['почта подтверждена', when(user.confirmedAt)],
      ['состояние', accountState(user)],
      ...(user.blockedAt
        ? ([
            ['заблокирован', when(user.blockedAt)],
            ['причина блокировки', user.blockedReason],
          ] as [string, string | null][])
        : []),
      [
        'вход',
        isWaiting
          ? `ждёт до ${when(throttle.lockedUntil)} после ${throttle.failures} неверных попыток (снять: unlock)`
          : throttle
            ? `неверных попыток подряд: ${throttle.failures}`
            : 'без ограничений',
      ],
      ['баланс', `${roubles(user.balanceKopecks)}, ${points(user.balancePoints)}`],
    ])) {
      out(`  ${line}`);
    }

    const sessions = await deps.sessions.listActive(user.id);
    out('');
    out(`Сеансы (${sessions.length})`);
    for (const line of table(
      ['id', 'начат', 'последний запрос', 'адрес', 'сайт', 'браузер'],
      sessions.map((row) => [
        row.id,
        when(row.createdAt),
        when(row.lastActivityAt),
        row.ipAddress,
        row.clientOrigin ?? 'кабинет',
        row.userAgent.slice(0, 60),
      ]),
    )) {
      out(`  ${line}`);
    }

    const events = await deps.securityLog.page(user.id, { limit: 10 });
    out('');
    out('События безопасности (последние 10)');
    for (const line of table(
      ['когда', 'событие', 'адрес', 'подробности'],
      events.data.map((event) => [
        when(new Date(event.occurredAt)),
        SECURITY_EVENT_TEXTS[event.kind],
        event.ipAddress,
        Object.keys(event.details).length > 0 ? JSON.stringify(event.details) : '',
      ]),
    )) {
      out(`  ${line}`);
    }

    const payments = await recentPayments(deps.db, user.id, 10);
    out('');
    out('Платежи (последние 10)');
    for (const line of table(
      ['id', 'создан', 'сумма', 'способ', 'статус', 'зачислен', 'возвращено'],
      payments.map((row) => [
        row.id,
        when(row.createdAt),
        roubles(row.amountKopecks),
        `${row.method}/${row.provider}`,
        row.status,
        when(row.creditedAt),
        row.refundedKopecks ? roubles(row.refundedKopecks) : '',
      ]),
    )) {
      out(`  ${line}`);
    }

    const entries = await recentLedgerEntries(deps.db, user.id, ledgerLines);
    out('');
    out(`Журнал операций (последние ${ledgerLines})`);
    for (const line of table(
      ['когда', 'вид', 'сумма', 'описание', 'ключ'],
      entries.map((row) => [
        when(row.createdAt),
        row.kind,
        money(row.currency, row.amount),
        row.description,
        row.idempotencyKey,
      ]),
    )) {
      out(`  ${line}`);
    }

    const services = await listServicesOf(deps.db, user.id);
    out('');
    out(`Услуги (${services.length})`);
    for (const line of table(
      ['id', 'сайт', 'название', 'цена', 'оплачена до', 'автопродление', 'состояние'],
      services.map((row) => [
        row.id,
        row.sibling,
        row.name,
        roubles(row.priceKopecks),
        when(row.paidUntil),
        row.autoRenew ? 'да' : 'нет',
        row.status,
      ]),
    )) {
      out(`  ${line}`);
    }

    const actions = await recentOperatorActions(deps.db, user.id, 10);
    out('');
    out('Действия поддержки (последние 10)');
    for (const line of table(
      ['когда', 'кто', 'команда', 'причина'],
      actions.map((row) => [when(row.at), row.operator, row.command, row.reason]),
    )) {
      out(`  ${line}`);
    }
  },
};
