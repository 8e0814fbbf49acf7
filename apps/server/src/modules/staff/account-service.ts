/**
 * Finding an account and opening it, for support. Opening one shows personal data, so it is
 * recorded in the audit (`account_opened`) as an action is; so is opening a payment's receipts
 * (`receipts_opened`); a search is not.
 */
import { PAYMENT_NOT_FOUND } from '@portal/contracts/messages';
import type {
  StaffAccountAnswer,
  StaffAuditRow,
  StaffReceiptsAnswer,
} from '@portal/contracts/staff';
import type { Clock } from '../../adapters/clock.js';
import { lettersToAddress } from '../../adapters/mail-operator.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { notFound } from '../../http/app-error.js';
import {
  type AccountSearch,
  type AccountSearchHit,
  findUserById,
  readBalances,
  type UserRow,
} from '../accounts/index.js';
import { type LoginThrottle, loginCounterKeys, type SessionStore } from '../auth/index.js';
import {
  actedBy,
  type OperatorActionRow,
  recentOperatorActions,
  recordOperatorAction,
  type StaffActor,
} from '../operator/index.js';
import type { PasskeyService } from '../passkeys/index.js';
import {
  findPayment,
  receiptsOfPayment,
  receiptView,
  recentLedgerEntries,
  recentPayments,
} from '../payments/index.js';
import { describeDevice, type SecurityLog } from '../security-log/index.js';
import type { TwoFactorService } from '../two-factor/index.js';
import { STAFF_MESSAGES } from './messages.js';
import type { StaffRoleService } from './role-service.js';

/** How many of each list the account page shows. */
const SHOWN = { securityLog: 50, payments: 50, ledger: 50, letters: 30, staffActions: 50 };

export interface StaffAccountDeps {
  /** What a receipt prints: the seller's name, the tax service's page (payments' receiptView). */
  config: Pick<Config, 'BRAND_NAME' | 'RECEIPT_CHECK_URL'>;
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  loginThrottle: LoginThrottle;
  securityLog: SecurityLog;
  twoFactor: TwoFactorService;
  passkeys: PasskeyService;
  /** modules/account-data's deletion status (`app.deps.accountDeletion`). */
  accountDeletion: { status(userId: string): Promise<{ dueAt: Date | null }> };
  roles: StaffRoleService;
  accountSearch: AccountSearch;
}

export class StaffAccountService {
  constructor(private readonly deps: StaffAccountDeps) {}

  /** One page of accounts (the search's own order); one more than asked says there is more. */
  search(query: string, page: { limit: number; offset: number }): Promise<AccountSearchHit[]> {
    return this.deps.accountSearch.search(this.deps.db, query, page);
  }

  /** The account, or 404 «Аккаунт не найден» (also for a malformed id). */
  async find(id: string): Promise<UserRow> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
    const user = isUuid ? await findUserById(this.deps.db, id.toLowerCase()) : undefined;
    if (!user) throw notFound(STAFF_MESSAGES.accountNotFound);
    return user;
  }

  /** Everything support sees of an account; the opening is recorded first. */
  async open(actor: StaffActor, id: string): Promise<StaffAccountAnswer> {
    const { db, clock } = this.deps;
    const user = await this.find(id);
    await recordOperatorAction(db, {
      ...actedBy(actor),
      command: 'account_opened',
      accountId: user.id,
      at: clock.now(),
    });
    return this.view(user);
  }

  /**
   * The receipts of a payment (by the portal's or the bank's id, as a refund names it): the
   * top-up's and each refund's, as the customer's receipt page shows them. Recorded first, on the
   * payer's account, as opening the account is; 404 «Платёж не найден».
   */
  async receipts(actor: StaffActor, paymentId: string): Promise<StaffReceiptsAnswer> {
    const { db, clock, config } = this.deps;
    const payment = await findPayment(db, paymentId);
    if (!payment) throw notFound(PAYMENT_NOT_FOUND);
    await recordOperatorAction(db, {
      ...actedBy(actor),
      command: 'receipts_opened',
      accountId: payment.userId,
      details: { paymentId: payment.id },
      at: clock.now(),
    });
    const rows = await receiptsOfPayment(db, payment.id);
    return { items: await Promise.all(rows.map((row) => receiptView(config, row))) };
  }

  private async view(user: UserRow): Promise<StaffAccountAnswer> {
    const { db, clock, sessions, loginThrottle, securityLog, twoFactor, passkeys } = this.deps;
    const now = clock.now();
    const throttle = await loginThrottle.state(loginCounterKeys.account(user.id));
    const balances = await readBalances(db, user.id);
    const events = await securityLog.page(user.id, { limit: SHOWN.securityLog });
    const payments = await recentPayments(db, user.id, SHOWN.payments);
    const ledger = await recentLedgerEntries(db, user.id, SHOWN.ledger);
    const letters = await lettersToAddress(db, user.email, SHOWN.letters);
    const actions = await recentOperatorActions(db, user.id, SHOWN.staffActions);
    const fullName = [user.lastName, user.firstName, user.middleName].filter(Boolean).join(' ');
    return {
      profile: {
        id: user.id,
        email: user.email,
        username: user.userName,
        fullName: fullName || null,
        phone: user.phone,
        telegramId: user.telegramId === null ? null : String(user.telegramId),
        isEmailConfirmed: user.confirmedAt !== null,
        createdAt: user.createdAt.toISOString(),
        blockedAt: user.blockedAt?.toISOString() ?? null,
        blockedReason: user.blockedReason,
        deletionScheduledAt:
          (await this.deps.accountDeletion.status(user.id)).dueAt?.toISOString() ?? null,
        signInPausedUntil:
          throttle?.lockedUntil && throttle.lockedUntil > now
            ? throttle.lockedUntil.toISOString()
            : null,
        hasAuthenticator: await twoFactor.isEnabled(user.id),
        passkeyCount: (await passkeys.list(user.id)).length,
        staffRole: await this.deps.roles.roleOf(user.id),
      },
      balances: { rub: (balances?.kopecks ?? 0) / 100, points: balances?.points ?? 0 },
      sessions: (await sessions.listActive(user.id)).map((row) => ({
        id: row.id,
        device: describeDevice(row.userAgent),
        ip: row.ipAddress || null,
        site: row.clientOrigin,
        createdAt: row.createdAt.toISOString(),
        lastSeenAt: row.lastActivityAt.toISOString(),
      })),
      securityLog: events.data.map((event) => ({
        kind: event.kind,
        at: event.occurredAt,
        ip: event.ipAddress,
      })),
      payments: payments.map((row) => ({
        id: row.id,
        amount: row.amountKopecks / 100,
        status: row.status,
        method: row.method,
        createdAt: row.createdAt.toISOString(),
        refunded: row.refundedKopecks / 100,
      })),
      ledger: ledger.map((row) => ({
        at: row.createdAt.toISOString(),
        kind: row.kind,
        currency: row.currency,
        amount: row.currency === 'rub' ? row.amount / 100 : row.amount,
        description: row.description,
      })),
      letters: letters.map((row) => ({
        id: row.id,
        subject: row.subject,
        status: LETTER_STATUS[row.status],
        createdAt: row.createdAt.toISOString(),
        attempts: row.attempts,
      })),
      staffActions: actions.map(auditRowOf),
    };
  }
}

/** The outbox's states as the page names them: a letter being sent is still on its way. */
const LETTER_STATUS = {
  pending: 'pending',
  sending: 'pending',
  sent: 'sent',
  failed: 'failed',
  expired: 'failed',
} as const;

/** One row of the audit as the pages and the CSV show it. */
export function auditRowOf(row: OperatorActionRow): StaffAuditRow {
  return {
    seq: row.seq,
    at: row.at.toISOString(),
    actor: row.operator,
    role: row.role,
    kind: row.command,
    accountId: row.accountId,
    reason: row.reason,
    ip: row.ip,
    details: row.details,
  };
}
