import type { ParseArgsConfig } from 'node:util';

export type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

import { findUserById, searchUsers, type UserRow } from '../accounts/index.js';
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

/**
 * The one account a command names (id, e-mail, username, Telegram or Yandex id). None, or several,
 * is a refusal that lists them: the operator chooses by id.
 */
export async function resolveAccount(ctx: OperatorContext, query: string): Promise<UserRow> {
  const found = await searchUsers(ctx.deps.db, query, 10);
  if (found.length === 1) {
    // Read again by id: the search's row and this one are the same account.
    const row = await findUserById(ctx.deps.db, found[0]!.id);
    if (row) return row;
  }
  if (found.length === 0) throw new Refusal(`Аккаунт не найден: ${query}`);
  for (const line of accountTable(found)) ctx.out(line);
  throw new Refusal(`Под «${query}» подходят несколько аккаунтов: укажите id`);
}

export function accountTable(rows: UserRow[]): string[] {
  return table(
    ['id', 'никнейм', 'почта', 'telegram', 'состояние'],
    rows.map((row) => [row.id, row.userName, row.email, row.telegramId, accountState(row)]),
  );
}

export function accountState(row: UserRow): string {
  if (row.status === 'deleted') return 'удалён';
  if (row.blockedAt) return 'заблокирован';
  if (!row.confirmedAt) return 'почта не подтверждена';
  return 'активен';
}
