import { Readable } from 'node:stream';
import type { Clock } from '../../adapters/clock.js';
import { notFound } from '../../http/app-error.js';
import { findUserById } from '../accounts/index.js';
import type { EventClient } from '../security-log/index.js';
import {
  EXPORT_PARTS,
  type ExportContext,
  type ExportDeps,
  type ExportPart,
} from './export-parts.js';

/** The version of the file's shape, written first. */
const EXPORT_FORMAT = 'portal-account-data/1';

/** `moi-dannye-<username>-<YYYY-MM-DD>.json`: the username is Latin already (decision 13). */
export function exportFileName(userName: string, now: Date): string {
  const safe = userName.replace(/[^A-Za-z0-9_-]/g, '') || 'account';
  return `moi-dannye-${safe}-${now.toISOString().slice(0, 10)}.json`;
}

const isPages = (value: unknown): value is AsyncIterable<readonly unknown[]> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/** The JSON text of the whole file, piece by piece: one part, or one page of a part, at a time. */
export async function* exportChunks(
  context: ExportContext,
  parts: readonly ExportPart[] = EXPORT_PARTS,
): AsyncGenerator<string> {
  yield `{"format":${JSON.stringify(EXPORT_FORMAT)},"exportedAt":${JSON.stringify(context.now)}`;
  for (const part of parts) {
    yield `,\n${JSON.stringify(part.name)}:`;
    const value = part.read(context);
    if (!isPages(value)) {
      yield JSON.stringify((await value) ?? null);
      continue;
    }
    let isFirst = true;
    yield '[';
    for await (const rows of value) {
      for (const row of rows) {
        yield `${isFirst ? '\n' : ',\n'}${JSON.stringify(row)}`;
        isFirst = false;
      }
    }
    yield '\n]';
  }
  yield '\n}\n';
}

export interface AccountExportDeps extends ExportDeps {
  clock: Clock;
}

/** «Скачать мои данные»: the file of everything the portal keeps about the account. */
export class AccountExport {
  constructor(private readonly deps: AccountExportDeps) {}

  /** Records the export in the security log, then answers the file's name and its stream. */
  async start(
    userId: string,
    client: EventClient,
  ): Promise<{ fileName: string; stream: Readable }> {
    const { db, clock, securityLog } = this.deps;
    const user = await findUserById(db, userId);
    if (!user) throw notFound();
    const now = clock.now();
    await securityLog.record(db, userId, 'data_exported', client);
    const stream = Readable.from(exportChunks({ deps: this.deps, userId, now }));
    return { fileName: exportFileName(user.userName, now), stream };
  }
}
