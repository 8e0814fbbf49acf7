/**
 * Staff roles from the command line: `staff grant` names the first admin (after that admins grant
 * and take back roles on the staff pages too), `staff revoke`, `staff list`. The rules are the
 * support desk's (`app.deps.staff.roles`, modules/staff/role-service.ts): one live role per
 * account, a passkey or the authenticator required, a role taken back ends its staff sessions.
 */
import { STAFF_ROLE_NAMES, STAFF_ROLES, type StaffRole } from '@portal/contracts/staff';
import { ACTION_OPTIONS, type Command, resolveAccount, staffActorOf } from './command.js';
import { table, UsageError, when } from './context.js';
import { refuseWithoutRedisBesideRedisPortal } from './portal-runtime.js';

const USAGE = [
  'staff list',
  'staff grant <аккаунт> --role support|finance|admin --operator <имя> --reason "…"',
  'staff revoke <аккаунт> --operator <имя> --reason "…"',
];

export const staffCommand: Command = {
  name: 'staff',
  summary: 'сотрудники поддержки: список, выдать роль, снять роль',
  usage: USAGE,
  help: [
    'Роли: support — поиск и карточка аккаунта, разблокировка, завершение сеансов, блокировка,',
    'сброс второго шага входа, письма; finance — то же и деньги; admin — то же, роли и журнал.',
    'grant выдаёт роль или меняет прежнюю; первого администратора назначают здесь, дальше',
    'администраторы делают это и на странице /staff/roles. У сотрудника должен быть ключ доступа',
    'или приложение-аутентификатор: каждое действие на страницах требует подтверждения им.',
    'revoke снимает роль и сразу завершает сеансы сотрудника, в которых он подтверждался; если',
    'портал работает с Redis, а у команды нет REDIS_URL, она отказывается: задайте REDIS_URL.',
    '<аккаунт> — id, почта, никнейм или Telegram id.',
  ],
  options: { ...ACTION_OPTIONS, role: { type: 'string' } },
  async run(ctx, positionals, values) {
    const [action, account, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`Лишние аргументы: ${extra.join(' ')}`, 'staff');
    const { roles } = ctx.deps.staff;
    if (action === 'list') {
      if (account) throw new UsageError(`Лишние аргументы: ${account}`, 'staff');
      const members = await roles.list();
      if (members.length === 0) return ctx.out('Сотрудников нет');
      for (const line of table(
        ['id', 'никнейм', 'почта', 'роль', 'выдал', 'когда'],
        members.map(({ user, role }) => [
          user.id,
          user.userName,
          user.email,
          role.role,
          role.grantedBy,
          when(role.grantedAt),
        ]),
      )) {
        ctx.out(line);
      }
      return;
    }
    if (action !== 'grant' && action !== 'revoke') {
      throw new UsageError('Укажите list, grant <аккаунт> или revoke <аккаунт>', 'staff');
    }
    if (!account) throw new UsageError('Не указан аккаунт', 'staff');
    const actor = staffActorOf(values, 'staff', true);
    const user = await resolveAccount(ctx, account);
    if (action === 'revoke') {
      // It ends the member's staff sessions: a portal with Redis must hear of it.
      await refuseWithoutRedisBesideRedisPortal(ctx.deps);
      const ended = await roles.revoke(actor, user);
      return ctx.out(`Роль снята: ${user.userName}; завершено сеансов сотрудника: ${ended}`);
    }
    const role = roleOf(values.role);
    const previous = await roles.grant(actor, user, role);
    ctx.out(
      previous
        ? `Роль ${user.userName} изменена: ${previous} → ${role} (${STAFF_ROLE_NAMES[role]})`
        : `Роль выдана: ${user.userName} — ${role} (${STAFF_ROLE_NAMES[role]})`,
    );
  },
};

function roleOf(value: string | boolean | undefined): StaffRole {
  const role = STAFF_ROLES.find((each) => each === value);
  if (!role) throw new UsageError(`Укажите --role ${STAFF_ROLES.join('|')}`, 'staff');
  return role;
}
