/**
 * Access to an account: `unlock` (the wait after wrong passwords), `end-sessions`, `block`,
 * `unblock` and `reset-second-factors`. Each records who did it and why (`operator_actions`), and
 * the ones the customer should know about are written into the account's security log, in the
 * transaction of the change.
 */
import { setUserBlocked } from '../accounts/index.js';
import { loginCounterKeys } from '../auth/index.js';
import { NO_CLIENT } from '../security-log/index.js';
import { recordOperatorAction } from './audit.js';
import { ACTION_OPTIONS, actorOf, type Command, resolveAccount, single } from './command.js';
import { Refusal, when } from './context.js';
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
    const actor = actorOf(values, 'unlock', false);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'unlock'));
    const { deps } = ctx;
    const subject = loginCounterKeys.account(user.id);
    const before = await deps.loginThrottle.state(subject);
    await deps.db.transaction(async (tx) => {
      await recordOperatorAction(tx, {
        ...actor,
        command: 'unlock',
        accountId: user.id,
        details: {
          failures: before?.failures ?? 0,
          lockedUntil: before?.lockedUntil?.toISOString() ?? null,
        },
        at: deps.clock.now(),
      });
    });
    await deps.loginThrottle.reset(subject);
    ctx.out(
      before?.lockedUntil && before.lockedUntil > deps.clock.now()
        ? `Ожидание входа снято (было до ${when(before.lockedUntil)}): ${user.userName}`
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
    const actor = actorOf(values, 'end-sessions', false);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'end-sessions'));
    const { deps } = ctx;
    await refuseWithoutRedisBesideRedisPortal(deps);
    const ended = await deps.db.transaction(async (tx) => {
      const count = await deps.sessions.revokeAll(user.id, {}, tx);
      await deps.securityLog.record(tx, user.id, 'sessions_ended_by_support', NO_CLIENT);
      await recordOperatorAction(tx, {
        ...actor,
        command: 'end-sessions',
        accountId: user.id,
        details: { sessionsEnded: count },
        at: deps.clock.now(),
      });
      return count;
    });
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
    const actor = actorOf(values, 'block', true);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'block'));
    if (user.blockedAt) {
      throw new Refusal(
        `Аккаунт уже заблокирован с ${when(user.blockedAt)}: ${user.blockedReason ?? ''}`,
      );
    }
    const { deps } = ctx;
    await refuseWithoutRedisBesideRedisPortal(deps);
    const ended = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      // The row first: a sign-in running now waits for this transaction and then sees the block
      // (auth/sessions.ts `create`); a session it created before is ended just below.
      if (!(await setUserBlocked(tx, user.id, { reason: actor.reason! }, now))) {
        throw new Refusal(`Аккаунт ${user.userName} уже заблокирован`);
      }
      const count = await deps.sessions.revokeAll(user.id, {}, tx);
      await deps.securityLog.record(tx, user.id, 'blocked', NO_CLIENT);
      await recordOperatorAction(tx, {
        ...actor,
        command: 'block',
        accountId: user.id,
        details: { sessionsEnded: count },
        at: now,
      });
      return count;
    });
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
    const actor = actorOf(values, 'unblock', false);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'unblock'));
    if (!user.blockedAt) throw new Refusal(`Аккаунт ${user.userName} не заблокирован`);
    const { deps } = ctx;
    await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      if (!(await setUserBlocked(tx, user.id, null, now))) {
        throw new Refusal(`Аккаунт ${user.userName} не заблокирован`);
      }
      await deps.securityLog.record(tx, user.id, 'unblocked', NO_CLIENT);
      await recordOperatorAction(tx, {
        ...actor,
        command: 'unblock',
        accountId: user.id,
        details: { blockedAt: user.blockedAt?.toISOString(), blockedReason: user.blockedReason },
        at: now,
      });
    });
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
    const actor = actorOf(values, 'reset-second-factors', true);
    const user = await resolveAccount(ctx, single(positionals, 'аккаунт', 'reset-second-factors'));
    const { deps } = ctx;
    const { wasAuthenticatorOn, passkeysRemoved } = await deps.db.transaction(async (tx) => {
      const result = {
        wasAuthenticatorOn: await deps.twoFactor.disableBySupport(tx, user.id, NO_CLIENT),
        passkeysRemoved: await deps.passkeys.removeAllBySupport(tx, user.id, NO_CLIENT),
      };
      if (!result.wasAuthenticatorOn && result.passkeysRemoved === 0) {
        throw new Refusal(`У аккаунта ${user.userName} нет второго шага входа: менять нечего`);
      }
      await recordOperatorAction(tx, {
        ...actor,
        command: 'reset-second-factors',
        accountId: user.id,
        details: result,
        at: deps.clock.now(),
      });
      return result;
    });
    ctx.out(
      `${user.userName}: приложение-аутентификатор ${wasAuthenticatorOn ? 'выключено' : 'не было включено'}; ` +
        `удалено ключей доступа: ${passkeysRemoved}`,
    );
  },
};
