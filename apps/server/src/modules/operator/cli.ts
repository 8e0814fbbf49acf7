/**
 * The operator's command line: `npm run admin -- <command> …` (entry: src/admin.ts). Parses with
 * node:util `parseArgs`, answers `--help` in Russian for the tool and for each command, and maps
 * outcomes to exit codes: 0 done, 1 refused or failed (nothing changed unless it says so),
 * 2 a wrong command line.
 */
import { parseArgs } from 'node:util';
import { AppError } from '../../http/app-error.js';
import {
  blockCommand,
  endSessionsCommand,
  resetSecondFactorsCommand,
  unblockCommand,
  unlockCommand,
} from './access-commands.js';
import { findCommand, showCommand } from './account-commands.js';
import type { Command, ParsedValues } from './command.js';
import { EXIT, type OperatorContext, Refusal, UsageError } from './context.js';
import { lettersCommand } from './letter-commands.js';
import { creditCommand, debitCommand } from './money-commands.js';
import { moneyRequestsCommand } from './money-request-commands.js';
import { oidcClientsCommand, oidcKeysCommand } from './oidc-commands.js';
import { reconcileCommand, refundCommand } from './payment-commands.js';
import { staffCommand } from './staff-commands.js';

/**
 * Every command, in the order `--help` lists them. A new one is one `Command` in a file of its
 * group and one line here.
 */
export const COMMANDS: readonly Command[] = [
  findCommand,
  showCommand,
  unlockCommand,
  endSessionsCommand,
  blockCommand,
  unblockCommand,
  resetSecondFactorsCommand,
  creditCommand,
  debitCommand,
  refundCommand,
  moneyRequestsCommand,
  reconcileCommand,
  lettersCommand,
  oidcKeysCommand,
  oidcClientsCommand,
  staffCommand,
];

const PROGRAM = 'npm run admin --';

export function toolHelp(): string[] {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'Инструменты поддержки: поиск аккаунта, доступ, корректировки баланса, платежи, письма,',
    'ключи и сайты входа через кабинет, сотрудники поддержки.',
    '',
    `Использование: ${PROGRAM} <команда> [аргументы] [параметры]`,
    `               ${PROGRAM} <команда> --help     подробно о команде`,
    '',
    'Команды:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Каждое действие (не чтение) требует --operator <имя> и записывается в журнал действий',
    'поддержки (operator_actions), который нельзя изменить; block, reset-second-factors,',
    'credit, debit, refund, money-requests decline, letters drop и staff grant|revoke требуют ещё --reason "…".',
    'Возврат или корректировка больше STAFF_APPROVAL_ROUBLES (по умолчанию 1 000 ₽) ждёт',
    'одобрения другого сотрудника: money-requests.',
    '',
    'База: та же, что у портала (DATABASE_URL или встроенная в DATA_DIR). Встроенную базу',
    'открывает только один процесс: пока портал работает, остановите его или работайте на',
    'PostgreSQL.',
    '',
    'Коды выхода: 0 — выполнено, 1 — отказ или ошибка, 2 — неверная команда.',
  ];
}

export function commandHelp(command: Command): string[] {
  return [
    `${command.name} — ${command.summary}`,
    '',
    ...command.usage.map(
      (usage, index) => `${index === 0 ? 'Использование:' : '              '} ${PROGRAM} ${usage}`,
    ),
    '',
    ...command.help,
  ];
}

export type Prepared =
  /** Help asked for: print it, exit 0. */
  | { kind: 'help'; lines: string[] }
  /** A wrong command line: print the message, exit 2. */
  | { kind: 'usage'; message: string; command?: string | undefined }
  | { kind: 'run'; command: Command; positionals: string[]; values: ParsedValues };

/** Reads the command line without touching the database: help and usage errors need none. */
export function prepare(argv: string[]): Prepared {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const named =
      name === 'help' ? COMMANDS.find((command) => command.name === rest[0]) : undefined;
    return { kind: 'help', lines: named ? commandHelp(named) : toolHelp() };
  }
  const command = COMMANDS.find((each) => each.name === name);
  if (!command) return { kind: 'usage', message: `Нет такой команды: ${name}` };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return { kind: 'usage', message: parseError(error), command: command.name };
  }
  if (parsed.values.help) return { kind: 'help', lines: commandHelp(command) };
  return {
    kind: 'run',
    command,
    positionals: parsed.positionals,
    values: parsed.values as ParsedValues,
  };
}

/** parseArgs words its refusals in English; the tool speaks Russian. */
function parseError(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Неизвестный параметр ${option}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `У параметра ${option} нет значения или оно лишнее`;
    default:
      return message;
  }
}

/** Runs a prepared command line; answers the exit code. */
export async function execute(ctx: OperatorContext, prepared: Prepared): Promise<number> {
  if (prepared.kind === 'help') {
    for (const line of prepared.lines) ctx.out(line);
    return EXIT.ok;
  }
  if (prepared.kind === 'usage') {
    usage(ctx, prepared.message, prepared.command);
    return EXIT.usage;
  }
  try {
    await prepared.command.run(ctx, prepared.positionals, prepared.values);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      usage(ctx, error.message, error.command ?? prepared.command.name);
      return EXIT.usage;
    }
    // A service's refusal (money-service.ts, modules/staff, payments' refunds) is in Russian and changed nothing.
    if (error instanceof Refusal || error instanceof AppError) {
      ctx.err(error.message);
      return EXIT.refused;
    }
    throw error;
  }
}

function usage(ctx: OperatorContext, message: string, command?: string) {
  ctx.err(message);
  ctx.err(command ? `Подробно: ${PROGRAM} ${command} --help` : `Команды: ${PROGRAM} --help`);
}

/** The whole command line in the process (tests call this with a test app's deps). */
export function runAdmin(ctx: OperatorContext, argv: string[]): Promise<number> {
  return execute(ctx, prepare(argv));
}
