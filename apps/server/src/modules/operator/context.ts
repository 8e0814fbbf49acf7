/**
 * What every command of the operator's tool gets, and how it answers: plain-text lines, and two
 * kinds of failure with their exit codes (`Refusal` 1: the action was refused or failed;
 * `UsageError` 2: the command line is wrong).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.js';

/**
 * What the commands use of the portal's services, built as the portal builds them (app.ts), never
 * started; a command needing another one adds its name here.
 */
export type OperatorDeps = Pick<
  AppDeps,
  | 'config'
  | 'accountSearch'
  | 'database'
  | 'db'
  | 'clock'
  | 'redis'
  | 'sessions'
  | 'loginThrottle'
  | 'securityLog'
  | 'twoFactor'
  | 'passkeys'
  | 'payments'
  | 'oidcSigningKeys'
  | 'staffMoney'
  | 'staff'
>;

export interface OperatorContext {
  deps: OperatorDeps;
  log: FastifyBaseLogger;
  /** One line of output. */
  out: (line: string) => void;
  /** One line about a refusal or a mistake (stderr). */
  err: (line: string) => void;
}

export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

/** The action was refused (nothing changed) or could not be done: exit code 1. */
export class Refusal extends Error {}

/** The command line is wrong: exit code 2, with the command's help pointed to. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** A table in monospace: columns as wide as their widest cell, a rule under the header. */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string[] {
  const cells = rows.map((row) =>
    row.map((cell) => (cell === null || cell === undefined ? '—' : String(cell))),
  );
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((row) => row[column]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '─'.repeat(width))), ...cells.map(line)];
}

/** Label: value lines, labels aligned. */
export function fields(pairs: [string, string | number | null | undefined][]): string[] {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(
    ([label, value]) =>
      `${`${label}:`.padEnd(width + 1)} ${value === null || value === undefined || value === '' ? '—' : value}`,
  );
}

/** A moment as support reads it: UTC, to the second. */
export function when(date: Date | null | undefined): string {
  if (!date) return '—';
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Kopecks as roubles: «1 234,50 ₽». */
export function roubles(kopecks: number): string {
  const sign = kopecks < 0 ? '−' : '';
  const abs = Math.abs(kopecks);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${sign}${whole},${String(abs % 100).padStart(2, '0')} ₽`;
}

export function points(amount: number): string {
  return `${amount < 0 ? '−' : ''}${Math.abs(amount)} балл.`;
}

export function money(currency: 'rub' | 'points', amount: number): string {
  return currency === 'rub' ? roubles(amount) : points(amount);
}
