import type { ParseArgsConfig } from 'node:util';

export type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

import { type AccountSearchHit, findUserById, type UserRow } from '../accounts/index.js';
import type { StaffActor } from './audit.js';
import { type OperatorContext, Refusal, table, UsageError } from './context.js';

export type ParsedValues = Record<string, string | boolean | undefined>;

/** One command of the tool: its words for `--help`, its options for `parseArgs`, and its run. */
export interface Command {
  name: string;
  /** One line for the list of commands. */
  summary: string;
  /** How it is called, after `npm run admin --`. */
  usage: string[];
  /** What it does, in a few lines. */
  help: string[];
  options: ParseArgsOptionsConfig;
  run(ctx: OperatorContext, positionals: string[], values: ParsedValues): Promise<void>;
}

/** Options every action takes; reads take none of them. */
export const ACTION_OPTIONS = {
  operator: { type: 'string' },
  reason: { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

const MAX_NAME = 100;
const MAX_REASON = 500;

/** Who acts and why: `--operator` always, `--reason` where the command requires it. */
export function actorOf(values: ParsedValues, command: string, isReasonRequired: boolean) {
  const operator = typeof values.operator === 'string' ? values.operator.trim() : '';
  if (!operator) throw new UsageError('Укажите, кто выполняет действие: --operator <имя>', command);
  if (operator.length > MAX_NAME) {
    throw new UsageError(`Имя оператора длиннее ${MAX_NAME} символов`, command);
  }
  const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
  if (isReasonRequired && !reason) {
    throw new UsageError('Укажите причину: --reason "…"', command);
  }
  if (reason.length > MAX_REASON) {
    throw new UsageError(`Причина длиннее ${MAX_REASON} символов`, command);
  }
  return { operator, reason: reason || null };
}

/** The command line as a `StaffActor` of the services it shares with the staff pages. */
export function staffActorOf(
  values: ParsedValues,
  command: string,
  isReasonRequired: boolean,
): StaffActor {
  const { operator, reason } = actorOf(values, command, isReasonRequired);
  return { userId: null, name: operator, role: null, reason, ip: null };
}

/** The one positional argument a command needs. */
export function single(positionals: string[], what: string, command: string): string {
  if (positionals.length === 0) throw new UsageError(`Не указан ${what}`, command);
  if (positionals.length > 1) {
    throw new UsageError(`Лишние аргументы: ${positionals.slice(1).join(' ')}`, command);
  }
  return positionals[0]!;
}

/** What names an account for an action: its own identifiers, never a part or a payment. */
const RESOLVING_MATCHES: ReadonlySet<AccountSearchHit['matchedBy']> = new Set([
  'id',
  'email',
  'username',
  'phone',
  'telegram',
]);

/**
 * The one account a command names (id, e-mail, username, phone, Telegram or Yandex id): the
 * exact matches of support's search (`find`'s), never a partial one, so an action never lands on
 * an account the operator did not name. None, or several, is a refusal that lists them: the
 * operator chooses by id.
 */
export async function resolveAccount(ctx: OperatorContext, query: string): Promise<UserRow> {
  const hits = await ctx.deps.accountSearch.search(ctx.deps.db, query, { limit: 10, offset: 0 });
  const found = hits.filter((hit) => RESOLVING_MATCHES.has(hit.matchedBy)).map((hit) => hit.user);
  if (found.length === 1) {
    // Read again by id: the search's row and this one are the same account.
    const row = await findUserById(ctx.deps.db, found[0]!.id);
    if (row) return row;
  }
  if (found.length === 0) throw new Refusal(`Аккаунт не найден: ${query}`);
  for (const line of accountTable(found)) ctx.out(line);
  throw new Refusal(`Под «${query}» подходят несколько аккаунтов: укажите id`);
}

const ACCOUNT_COLUMNS = ['id', 'никнейм', 'почта', 'telegram', 'состояние'];
const accountCells = (row: UserRow) => [
  row.id,
  row.userName,
  row.email,
  row.telegramId,
  accountState(row),
];

export function accountTable(rows: UserRow[]): string[] {
  return table(ACCOUNT_COLUMNS, rows.map(accountCells));
}

/** What matched, as `find` shows it beside the row. */
const MATCHED_BY: Record<AccountSearchHit['matchedBy'], string> = {
  id: 'id',
  email: 'почта',
  username: 'никнейм',
  phone: 'телефон',
  telegram: 'Telegram',
  payment: 'платёж',
  partial: 'часть',
};

/** The accounts support's search found, with what matched. */
export function hitTable(hits: AccountSearchHit[]): string[] {
  return table(
    [...ACCOUNT_COLUMNS, 'совпадение'],
    hits.map((hit) => [...accountCells(hit.user), MATCHED_BY[hit.matchedBy]]),
  );
}

export function accountState(row: UserRow): string {
  if (row.status === 'deleted') return 'удалён';
  if (row.blockedAt) return 'заблокирован';
  if (!row.confirmedAt) return 'почта не подтверждена';
  return 'активен';
}
