import type { Db } from '../../db/database.js';
import { findUserById } from '../accounts/index.js';
import type { SessionStore } from '../auth/index.js';
import { listPasskeysForExport } from '../passkeys/index.js';
import { ledgerPageOf, paymentPageOf, type RowKey } from '../payments/index.js';
import type { SecurityLog } from '../security-log/index.js';
import { listServicesOf } from '../servers/index.js';
import type { TwoFactorService } from '../two-factor/index.js';

/** What the parts read from: the database and the modules whose state is not plain rows. */
export interface ExportDeps {
  db: Db;
  twoFactor: TwoFactorService;
  sessions: SessionStore;
  securityLog: SecurityLog;
}

/** What a part is read with: what it reads from, the account, the instant of the export. */
export interface ExportContext {
  deps: ExportDeps;
  userId: string;
  now: Date;
}

/**
 * One key of the exported file. `read` answers one value, or pages of rows: a long list (the
 * ledger, the security log) is written page by page as it is read, never held whole. A part
 * never carries a secret (a password hash, an authenticator's secret, recovery codes, token
 * hashes): each one picks the columns it writes.
 */
export interface ExportPart {
  name: string;
  read(context: ExportContext): Promise<unknown> | AsyncIterable<readonly unknown[]>;
}

/** Rows per page of the long lists. */
export const EXPORT_PAGE_SIZE = 500;

/** Pages of rows kept in (createdAt, id) order, each read after the previous page's last row. */
async function* keysetPages<Row extends RowKey>(read: (after?: RowKey) => Promise<Row[]>) {
  let after: RowKey | undefined;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_PAGE_SIZE) return;
    const last = rows.at(-1)!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

const profile: ExportPart = {
  name: 'profile',
  async read({ deps, userId }) {
    const user = await findUserById(deps.db, userId);
    if (!user) return null;
    return {
      id: user.id,
      email: user.email,
      userName: user.userName,
      firstName: user.firstName,
      middleName: user.middleName,
      lastName: user.lastName,
      phone: user.phone,
      avatarUrl: user.avatarUrl,
      confirmedAt: user.confirmedAt,
      createdAt: user.createdAt,
      balance: { kopecks: user.balanceKopecks, points: user.balancePoints },
      hasPassword: user.passwordHash !== null,
      isTwoFactorEnabled: await deps.twoFactor.isEnabled(userId),
    };
  },
};

const linkedAccounts: ExportPart = {
  name: 'linkedAccounts',
  async read({ deps, userId }) {
    const user = await findUserById(deps.db, userId);
    return {
      // The portal keeps the Telegram account's id only (no username), and Yandex ID's id.
      telegram: user?.telegramId ? { id: user.telegramId } : null,
      yandex: user?.yandexId ? { id: user.yandexId } : null,
    };
  },
};

const sessions: ExportPart = {
  name: 'sessions',
  async read({ deps, userId }) {
    return (await deps.sessions.listActive(userId)).map((session) => ({
      id: session.id,
      createdAt: session.createdAt,
      lastActivityAt: session.lastActivityAt,
      expiresAt: session.expiresAt,
      userAgent: session.userAgent,
      ipAddress: session.ipAddress,
      site: session.clientOrigin,
      rememberMe: session.rememberMe,
    }));
  },
};

const securityLog: ExportPart = {
  name: 'securityLog',
  async *read({ deps, userId }) {
    let cursor: string | undefined;
    do {
      const page = await deps.securityLog.page(userId, { limit: 100, cursor });
      if (page.data.length > 0) yield page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  },
};

const payments: ExportPart = {
  name: 'payments',
  read: ({ deps, userId }) =>
    keysetPages((after) => paymentPageOf(deps.db, userId, EXPORT_PAGE_SIZE, after)),
};

const ledger: ExportPart = {
  name: 'ledger',
  read: ({ deps, userId }) =>
    keysetPages((after) => ledgerPageOf(deps.db, userId, EXPORT_PAGE_SIZE, after)),
};

const services: ExportPart = {
  name: 'services',
  async read({ deps, userId }) {
    return (await listServicesOf(deps.db, userId)).map((service) => ({
      id: service.id,
      site: service.sibling,
      name: service.name,
      serverCount: service.serverCount,
      priceKopecks: service.priceKopecks,
      autoRenew: service.autoRenew,
      paidUntil: service.paidUntil,
      status: service.status,
      createdAt: service.createdAt,
    }));
  },
};

/** The account's passkeys: names and dates, never a key or a credential id. */
const passkeys: ExportPart = {
  name: 'passkeys',
  read: ({ deps, userId }) => listPasskeysForExport(deps.db, userId),
};

/**
 * The parts of «Скачать мои данные», in the file's order. A module that keeps more about the
 * account adds its part here, one line.
 */
export const EXPORT_PARTS: readonly ExportPart[] = [
  profile,
  linkedAccounts,
  sessions,
  passkeys,
  securityLog,
  payments,
  ledger,
  services,
];
