/**
 * Access to an account: `unlock` (the wait after wrong passwords), `end-sessions`, `block`,
 * `unblock` and `reset-second-factors`. The rules are the support desk's services
 * (`app.deps.staff.access`, modules/staff/access-service.ts), which the staff pages call too;
 * a command reads its line, names the account and prints the outcome.
 */
import { ACTION_OPTIONS, type Command, resolveAccount, single, staffActorOf } from './command.js';
import { when } from './context.js';
import { refuseWithoutRedisBesideRedisPortal } from './portal-runtime.js';

const ACCOUNT_HINT = '<аккаунт> — id, почта, никнейм или Telegram id.';

export const unlockCommand: Command = {
  name: 'unlock',
  summary: 'снять ожидание входа после неверных паролей',
  usage: ['unlock <аккаунт> --operator <имя> [--reason "…"]'],
  help: [
    'После 10 неверных паролей или кодов аккаунт ждёт (1, 2, 4 … 15 минут). Команда обнуляет',
    'счётчик: следующий вход проверяется сразу. Лимит по адресу (30 неудач за 15 минут) не',
    'снимается: он не относится к аккаунту.',
    ACCOUNT_HINT,
  ],
  options: { ...ACTION_OPTIONS },
  async run(ctx, positionals, values) {
    const actor = staffActorOf(values, 'unlock', false);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'unlock'));
    const { lockedUntil } = await ctx.deps.staff.access.unlock(actor, user);
    ctx.out(
      lockedUntil
        ? `Ожидание входа снято (было до ${when(lockedUntil)}): ${user.userName}`
        : `Счётчик неверных попыток обнулён (ожидания не было): ${user.userName}`,
    );
  },
};

export const endSessionsCommand: Command = {
  name: 'end-sessions',
  summary: 'завершить все сеансы аккаунта на всех процессах портала',
  usage: ['end-sessions <аккаунт> --operator <имя> [--reason "…"]'],
  help: [
    'Как «Выйти на всех устройствах»: сеансы завершаются в базе, и (с REDIS_URL) каждый процесс',
    'портала узнаёт об этом через Redis до следующего запроса. Клиент видит в журнале',
    'безопасности «Все сеансы завершены службой поддержки». Если портал работает с Redis, а у',
    'команды нет REDIS_URL, она отказывается: задайте REDIS_URL, как у портала.',
    ACCOUNT_HINT,
  ],
  options: { ...ACTION_OPTIONS },
  async run(ctx, positionals, values) {
    const actor = staffActorOf(values, 'end-sessions', false);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'end-sessions'));
    await refuseWithoutRedisBesideRedisPortal(ctx.deps);
    const ended = await ctx.deps.staff.access.endSessions(actor, user);
    ctx.out(`Завершено сеансов: ${ended} (${user.userName})`);
  },
};

export const blockCommand: Command = {
  name: 'block',
  summary: 'заблокировать аккаунт: никакого входа, все сеансы завершены',
  usage: ['block <аккаунт> --operator <имя> --reason "…"'],
  help: [
    'Заблокированный аккаунт не входит никаким способом (пароль, Яндекс ID, передача входа',
    'сайтам бренда, ключи доступа) и видит «Аккаунт заблокирован. Напишите в поддержку: …»',
    '(SUPPORT_URL). Его сеансы завершаются сразу. Причина видна поддержке (show), не клиенту.',
    ACCOUNT_HINT,
  ],
  options: { ...ACTION_OPTIONS },
  async run(ctx, positionals, values) {
    const actor = staffActorOf(values, 'block', true);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'block'));
    // An account blocked already is refused by the service, whatever Redis.
    if (!user.blockedAt) await refuseWithoutRedisBesideRedisPortal(ctx.deps);
    const ended = await ctx.deps.staff.access.block(actor, user);
    ctx.out(`Аккаунт ${user.userName} заблокирован; завершено сеансов: ${ended}`);
  },
};

export const unblockCommand: Command = {
  name: 'unblock',
  summary: 'снять блокировку аккаунта',
  usage: ['unblock <аккаунт> --operator <имя> [--reason "…"]'],
  help: ['Аккаунт снова может входить; прежние сеансы не возвращаются.', ACCOUNT_HINT],
  options: { ...ACTION_OPTIONS },
  async run(ctx, positionals, values) {
    const actor = staffActorOf(values, 'unblock', false);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'unblock'));
    await ctx.deps.staff.access.unblock(actor, user);
    ctx.out(`Блокировка снята: ${user.userName}`);
  },
};

export const resetSecondFactorsCommand: Command = {
  name: 'reset-second-factors',
  summary: 'выключить приложение-аутентификатор и удалить ключи доступа (потерян телефон)',
  usage: ['reset-second-factors <аккаунт> --operator <имя> --reason "…"'],
  help: [
    'Путь назад для владельца, который потерял и телефон с приложением (и резервные коды), и',
    'все ключи доступа: после команды он входит по паролю без второго шага. Сначала убедитесь,',
    'что просит владелец (например, письмом с его почты). Клиент видит в журнале безопасности',
    'выключение защиты и удаление каждого ключа. Сеансы не завершаются (end-sessions — отдельно).',
    ACCOUNT_HINT,
  ],
  options: { ...ACTION_OPTIONS },
  async run(ctx, positionals, values) {
    const actor = staffActorOf(values, 'reset-second-factors', true);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'reset-second-factors'));
    const { wasAuthenticatorOn, passkeysRemoved } = await ctx.deps.staff.access.resetSecondFactors(
      actor,
      user,
    );
    ctx.out(
      `${user.userName}: приложение-аутентификатор ${wasAuthenticatorOn ? 'выключено' : 'не было включено'}; ` +
        `удалено ключей доступа: ${passkeysRemoved}`,
    );
  },
};
