/**
 * Money moved by staff, one service under the command line (money-commands.ts,
 * payment-commands.ts, money-request-commands.ts) and the staff pages: corrections of a balance,
 * refunds of a top-up, reconciling a payment with the bank, and the requests of money moved by
 * two people.
 *
 * - At or under STAFF_APPROVAL_ROUBLES (points count 1:1, as the customer spends them) a
 *   correction or refund is done at once; above it, it becomes a `money_requests` row that another
 *   finance member or admin approves or declines within MONEY_REQUEST_HOURS.
 * - An approval is one conditional UPDATE in the transaction that moves the money (the ledger
 *   entry for a correction, the refund's debit for a refund), so 100 parallel approvals move it
 *   once, and a refusal of the money step (a debit the balance cannot pay now) leaves the request
 *   pending.
 * - Every step is recorded in `operator_actions` (audit.ts) in the transaction of its change,
 *   with who acted (`StaffActor`: the member's id, role and address, or the command line's name).
 * - The reason is the actor's: a correction, a refund and a decline are refused without one.
 */
import { PAYMENT_NOT_FOUND } from '@portal/contracts/messages';
import {
  MONEY_REQUEST_HOURS,
  STAFF_OWN_REQUEST,
  STAFF_REASON_REQUIRED,
  STAFF_REQUEST_CLOSED,
  staffCan,
} from '@portal/contracts/staff';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/database.js';
import { AppError, invalidInput, notFound } from '../../http/app-error.js';
import { findUserById, readBalances } from '../accounts/index.js';
import {
  findPayment,
  InsufficientFundsError,
  lockBalances,
  type PaymentRow,
  postLedgerEntry,
  type Reconciliation,
  type RefundOutcome,
  type Refunds,
  type SinglePaymentOutcome,
} from '../payments/index.js';
import { actedBy, recordOperatorAction, type StaffActor } from './audit.js';
import {
  ALREADY_DONE,
  CORRECTION_DONE,
  DEBIT_REFUSED,
  MONEY_ACCOUNT_NOT_FOUND,
  MONEY_AMOUNT_INVALID,
  MONEY_REQUEST_NOT_FOUND,
  RECONCILED,
  REFUND_DONE,
  REFUND_UNANSWERED,
  REQUEST_DECLINED,
  REQUEST_MADE,
  STAFF_MONEY_FORBIDDEN,
} from './messages.js';
import {
  claimForApproval,
  type Decider,
  declinePending,
  findMoneyRequest,
  findMoneyRequestByKey,
  insertMoneyRequest,
  isRequestedBy,
  listMoneyRequests,
  type NewMoneyRequest,
  reopenApproved,
  statusAt,
} from './money-requests.js';
import type { MoneyRequestRow } from './schema.js';

type Currency = 'rub' | 'points';

export interface CorrectionInput {
  accountId: string;
  direction: 'credit' | 'debit';
  currency: Currency;
  /** Kopecks for roubles, whole points for points; positive. */
  amount: number;
  /** One change per key: a repeat answers the first (done or requested). */
  idempotencyKey: string;
}

export interface RefundInput {
  /** The portal's payment id or the provider's. */
  paymentId: string;
  /** Kopecks; without it, everything still refundable. */
  amountKopecks?: number | undefined;
  idempotencyKey: string;
}

/** Done at once: the money moved (or, `isRepeat`, had moved before under the same key). */
export interface MoneyDone {
  status: 'done';
  message: string;
  isRepeat: boolean;
  /** A correction's balance after it, in its currency. */
  balance?: number;
  refund?: RefundOutcome;
}

/** Above the threshold: a request another member approves. */
export interface MoneyPending {
  status: 'pending';
  message: string;
  requestId: string;
  expiresAt: Date;
  /** Kopecks or points, as the approver will approve them. */
  amount: number;
  isRepeat: boolean;
}

export type MoneyOutcome = MoneyDone | MoneyPending;

export interface ReconcileResult {
  payment: PaymentRow;
  outcome: SinglePaymentOutcome;
  statusAfter: string | null;
  /** What came of it, in Russian: the command line prints it, the page shows it. */
  message: string;
  /**
   * false: the bank could not be asked or its answer not applied (no provider, another provider,
   * no answer): the command line's exit code 1, the page's 409. Recorded either way.
   */
  isReconciled: boolean;
}

const NOT_RECONCILED: ReadonlySet<SinglePaymentOutcome> = new Set([
  'failed',
  'no_provider',
  'other_provider',
]);

/** A request as staff reads it: its status as of now (an old pending one is expired). */
export interface MoneyRequestView {
  row: MoneyRequestRow;
  status: MoneyRequestRow['status'];
  accountEmail: string;
}

export interface StaffMoneyDeps {
  config: Pick<Config, 'STAFF_APPROVAL_ROUBLES'>;
  db: Db;
  clock: Clock;
  refunds: Refunds;
  reconciliation: Reconciliation;
  log: FastifyBaseLogger;
}

const HOUR = 60 * 60 * 1000;

/** A refund above the threshold, stopped inside the refund's transaction before its debit. */
class HeldForApproval extends Error {
  constructor(readonly amountKopecks: number) {
    super('held for approval');
  }
}

export class StaffMoney {
  constructor(private readonly deps: StaffMoneyDeps) {}

  /** The largest amount done at once, in kopecks or points (1 point = 1 rouble). */
  private limit(currency: Currency): number {
    const roubles = this.deps.config.STAFF_APPROVAL_ROUBLES;
    return currency === 'rub' ? roubles * 100 : roubles;
  }

  /** A credit or a debit of a balance: a `correction` entry whose description is the reason. */
  async correct(actor: StaffActor, input: CorrectionInput): Promise<MoneyOutcome> {
    requireMoneyRole(actor);
    const reason = requireReason(actor);
    const { currency, amount, direction } = input;
    if (!Number.isSafeInteger(amount) || amount <= 0) throw invalidInput(MONEY_AMOUNT_INVALID);
    const requested = await this.repeatOf(input.idempotencyKey);
    if (requested) return requested;
    if (amount <= this.limit(currency)) return this.correctNow(actor, reason, input);

    const balances = await readBalances(this.deps.db, input.accountId);
    if (!balances) throw notFound(MONEY_ACCOUNT_NOT_FOUND);
    const balance = currency === 'rub' ? balances.kopecks : balances.points;
    // Checked again at approval, under the lock; refused now so nobody approves what cannot be.
    if (direction === 'debit' && balance < amount) {
      throw new AppError('conflict', DEBIT_REFUSED(currency, balance, amount));
    }
    return this.request(actor, 'correction_requested', {
      kind: direction,
      accountId: input.accountId,
      paymentId: null,
      currency,
      amount,
      reason,
      idempotencyKey: input.idempotencyKey,
    });
  }

  /**
   * A paid top-up's money back to the card (payments' `Refunds`). The amount is chosen under the
   * payment's and the user's locks (all that is refundable when none is given); above the
   * threshold the refund stops there, before its debit, and becomes a request for that amount.
   */
  async refund(actor: StaffActor, input: RefundInput): Promise<MoneyOutcome> {
    requireMoneyRole(actor);
    const reason = requireReason(actor);
    const payment = await findPayment(this.deps.db, input.paymentId);
    if (!payment) throw notFound(PAYMENT_NOT_FOUND);
    const requested = await this.repeatOf(input.idempotencyKey);
    if (requested) return requested;
    const limit = this.limit('rub');
    let refund: RefundOutcome;
    try {
      refund = await this.deps.refunds.refund({
        paymentId: payment.id,
        amountKopecks: input.amountKopecks,
        reason,
        operator: actor.name,
        idempotencyKey: input.idempotencyKey,
        beforeDebit: async (_tx, amountKopecks) => {
          if (amountKopecks > limit) throw new HeldForApproval(amountKopecks);
        },
      });
    } catch (error) {
      if (!(error instanceof HeldForApproval)) throw error;
      return this.request(actor, 'refund_requested', {
        kind: 'refund',
        accountId: payment.userId,
        paymentId: payment.id,
        currency: 'rub',
        amount: error.amountKopecks,
        reason,
        idempotencyKey: input.idempotencyKey,
      });
    }
    await recordOperatorAction(this.deps.db, {
      ...actedBy(actor),
      reason,
      command: 'refund',
      accountId: payment.userId,
      details: { ...refund },
      at: this.deps.clock.now(),
    });
    return refundDone(refund);
  }

  /**
   * Asks the bank about one payment (GetState, whatever its age) and applies the answer as a
   * notification would: credited at most once, never cancelled. No threshold: the bank decides;
   * the reason is optional.
   */
  async reconcile(actor: StaffActor, paymentId: string): Promise<ReconcileResult> {
    requireMoneyRole(actor);
    const { db, clock, log } = this.deps;
    const payment = await findPayment(db, paymentId);
    if (!payment) throw notFound(PAYMENT_NOT_FOUND);
    const outcome = await this.deps.reconciliation.one(log, payment.id);
    const after = await findPayment(db, payment.id);
    const statusAfter = after?.status ?? null;
    await recordOperatorAction(db, {
      ...actedBy(actor),
      reason: optionalReason(actor),
      command: 'reconcile',
      accountId: payment.userId,
      details: { paymentId: payment.id, outcome, statusBefore: payment.status, statusAfter },
      at: clock.now(),
    });
    return {
      payment,
      outcome,
      statusAfter,
      message: RECONCILED(payment.id, outcome),
      isReconciled: !NOT_RECONCILED.has(outcome),
    };
  }

  /**
   * Approves another member's request and moves its money, once whatever the number of parallel
   * approvals. A correction: the approval, the ledger entry (key `money-request:<id>`) and the
   * record in one transaction under the user's lock; a debit the balance cannot pay now is
   * refused and the request stays pending. A refund: the approval is claimed in the refund's
   * debit transaction, then the bank's Cancel; a refusal by the bank gives the debit back
   * (refund.ts) and the request is pending again; no answer leaves it approved, the money
   * debited as «неизвестно», as any refund.
   */
  async approve(actor: StaffActor, requestId: string): Promise<MoneyDone> {
    requireMoneyRole(actor);
    const decider = deciderOf(actor);
    const row = await this.decidable(requestId, decider, true);
    const why = optionalReason(actor);
    return row.kind === 'refund'
      ? this.approveRefund(actor, row, why)
      : this.approveCorrection(actor, row, why);
  }

  /** Declines a pending request: no money moves. The requester may withdraw their own so. */
  async decline(actor: StaffActor, requestId: string): Promise<MoneyDone> {
    requireMoneyRole(actor);
    const reason = requireReason(actor);
    const decider = deciderOf(actor);
    const row = await this.decidable(requestId, decider, false);
    await this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const declined = await declinePending(tx, row.id, decider, reason, now);
      if (!declined) throw new AppError('conflict', STAFF_REQUEST_CLOSED);
      await recordOperatorAction(tx, {
        ...actedBy(actor),
        reason,
        command: 'money_request_declined',
        accountId: row.accountId,
        details: requestDetails(row),
        at: now,
      });
    });
    return { status: 'done', message: REQUEST_DECLINED, isRepeat: false };
  }

  /** The pending requests, oldest first; with `all`, the latest 100 of any status. */
  async list(options: { all?: boolean } = {}): Promise<MoneyRequestView[]> {
    const now = this.deps.clock.now();
    const rows = await listMoneyRequests(this.deps.db, {
      all: options.all ?? false,
      now,
      limit: 100,
    });
    const emails = new Map<string, string>();
    for (const accountId of new Set(rows.map((row) => row.accountId))) {
      const user = await findUserById(this.deps.db, accountId);
      emails.set(accountId, user?.email ?? '');
    }
    return rows.map((row) => ({
      row,
      status: statusAt(row, now),
      accountEmail: emails.get(row.accountId) ?? '',
    }));
  }

  // ---------------------------------------------------------------- the steps

  /** A repeat of a request made before under the same key answers that request as it stands. */
  private async repeatOf(idempotencyKey: string): Promise<MoneyOutcome | null> {
    const row = await findMoneyRequestByKey(this.deps.db, idempotencyKey);
    if (!row) return null;
    const status = statusAt(row, this.deps.clock.now());
    if (status === 'approved') return { status: 'done', message: ALREADY_DONE, isRepeat: true };
    if (status !== 'pending') throw new AppError('conflict', STAFF_REQUEST_CLOSED);
    return this.pending(row, true);
  }

  private pending(row: MoneyRequestRow, isRepeat: boolean): MoneyPending {
    return {
      status: 'pending',
      message: REQUEST_MADE(this.deps.config.STAFF_APPROVAL_ROUBLES),
      requestId: row.id,
      expiresAt: row.expiresAt,
      amount: row.amount,
      isRepeat,
    };
  }

  /** The request row and its record, in one transaction. */
  private async request(
    actor: StaffActor,
    command: 'correction_requested' | 'refund_requested',
    request: Omit<
      NewMoneyRequest,
      'requestedBy' | 'requestedByUserId' | 'requestedAt' | 'expiresAt'
    >,
  ): Promise<MoneyPending> {
    return this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const { row, isNew } = await insertMoneyRequest(tx, {
        ...request,
        requestedBy: actor.name,
        requestedByUserId: actor.userId,
        requestedAt: now,
        expiresAt: new Date(now.getTime() + MONEY_REQUEST_HOURS * HOUR),
      });
      if (isNew) {
        await recordOperatorAction(tx, {
          ...actedBy(actor),
          reason: row.reason,
          command,
          accountId: row.accountId,
          details: requestDetails(row),
          at: now,
        });
      }
      return this.pending(row, !isNew);
    });
  }

  /** Under the threshold: the ledger entry (key `operator:<key>`) and its record, at once. */
  private async correctNow(
    actor: StaffActor,
    reason: string,
    input: CorrectionInput,
  ): Promise<MoneyDone> {
    const signed = input.direction === 'credit' ? input.amount : -input.amount;
    return this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const posted = await postCorrection(tx, {
        userId: input.accountId,
        currency: input.currency,
        amount: signed,
        description: reason,
        reference: `operator:${actor.name}`,
        idempotencyKey: `operator:${input.idempotencyKey}`,
        at: now,
      });
      if (!posted) return { status: 'done' as const, message: ALREADY_DONE, isRepeat: true };
      await recordOperatorAction(tx, {
        ...actedBy(actor),
        reason,
        command: input.direction,
        accountId: input.accountId,
        details: {
          currency: input.currency,
          amount: signed,
          idempotencyKey: input.idempotencyKey,
          balanceBefore: posted.before,
          balanceAfter: posted.before + signed,
        },
        at: now,
      });
      return correctionDone(input.direction, input.currency, input.amount, posted.before + signed);
    });
  }

  private async approveCorrection(
    actor: StaffActor,
    row: MoneyRequestRow,
    reason: string | null,
  ): Promise<MoneyDone> {
    const direction = row.kind === 'credit' ? 'credit' : 'debit';
    const signed = direction === 'credit' ? row.amount : -row.amount;
    return this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      // The user's row first, as every balance change (payments/README.md), then the request.
      if (!(await lockBalances(tx, row.accountId))) throw notFound(MONEY_ACCOUNT_NOT_FOUND);
      const claimed = await claimForApproval(tx, row.id, deciderOf(actor), reason, now);
      if (!claimed) throw new AppError('conflict', STAFF_REQUEST_CLOSED);
      const posted = await postCorrection(tx, {
        userId: row.accountId,
        currency: row.currency,
        amount: signed,
        description: row.reason,
        reference: `money-request:${row.id}`,
        idempotencyKey: `money-request:${row.id}`,
        at: now,
      });
      // The claim above is the one way to this entry, so its key was never used.
      if (!posted) throw new Error(`money request ${row.id}: its ledger entry exists already`);
      await recordOperatorAction(tx, {
        ...actedBy(actor),
        reason,
        command: 'money_request_approved',
        accountId: row.accountId,
        details: {
          ...requestDetails(row),
          balanceBefore: posted.before,
          balanceAfter: posted.before + signed,
        },
        at: now,
      });
      return correctionDone(direction, row.currency, row.amount, posted.before + signed);
    });
  }

  private async approveRefund(
    actor: StaffActor,
    row: MoneyRequestRow,
    reason: string | null,
  ): Promise<MoneyDone> {
    const decider = deciderOf(actor);
    const claim: { at: Date | null } = { at: null };
    let refund: RefundOutcome;
    try {
      // No idempotency key: the claim in the debit's transaction is what makes it once, and a
      // request the bank refused may be approved again.
      refund = await this.deps.refunds.refund({
        paymentId: row.paymentId!,
        amountKopecks: row.amount,
        reason: row.reason,
        operator: actor.name,
        beforeDebit: async (tx) => {
          const now = this.deps.clock.now();
          const claimed = await claimForApproval(tx, row.id, decider, reason, now);
          if (!claimed) throw new AppError('conflict', STAFF_REQUEST_CLOSED);
          claim.at = now;
        },
      });
    } catch (error) {
      // The bank refused after the debit's transaction (with the approval) committed: the debit
      // was given back, so the request waits again. Only this call's own approval is reopened.
      if (claim.at && error instanceof AppError) {
        await reopenApproved(this.deps.db, row.id, decider, claim.at);
      }
      throw error;
    }
    await recordOperatorAction(this.deps.db, {
      ...actedBy(actor),
      reason,
      command: 'money_request_approved',
      accountId: row.accountId,
      details: { ...requestDetails(row), refund: { ...refund } },
      at: this.deps.clock.now(),
    });
    return refundDone(refund);
  }

  /**
   * The request, if this decider may still decide it: it exists, is pending and not expired, and
   * (for an approval) is not their own. Checked again by the decision's conditional UPDATE.
   */
  private async decidable(
    id: string,
    decider: Decider,
    isApproval: boolean,
  ): Promise<MoneyRequestRow> {
    const row = await findMoneyRequest(this.deps.db, id.trim());
    if (!row) throw notFound(MONEY_REQUEST_NOT_FOUND);
    if (statusAt(row, this.deps.clock.now()) !== 'pending') {
      throw new AppError('conflict', STAFF_REQUEST_CLOSED);
    }
    if (isApproval && isRequestedBy(row, decider)) {
      throw new AppError('conflict', STAFF_OWN_REQUEST);
    }
    return row;
  }
}

/** Money is the finance role's and the admin's; the command line (no role) may. */
function requireMoneyRole(actor: StaffActor): void {
  if (actor.role !== null && !staffCan(actor.role, 'money')) {
    throw new AppError('forbidden', STAFF_MONEY_FORBIDDEN);
  }
}

/**
 * The reason of a correction, a refund or a decline. The page's schema and the command line ask
 * for it before; this is the rule itself, for every caller of the service.
 */
function requireReason(actor: StaffActor): string {
  const reason = optionalReason(actor);
  if (reason === null)
    throw invalidInput(STAFF_REASON_REQUIRED, { reason: [STAFF_REASON_REQUIRED] });
  return reason;
}

/** An approval's or a reconciliation's reason, when one was given. */
const optionalReason = (actor: StaffActor): string | null => actor.reason?.trim() || null;

const deciderOf = (actor: StaffActor): Decider => ({ name: actor.name, userId: actor.userId });

function requestDetails(row: MoneyRequestRow) {
  return {
    requestId: row.id,
    kind: row.kind,
    currency: row.currency,
    amount: row.amount,
    paymentId: row.paymentId,
    requestedBy: row.requestedBy,
    expiresAt: row.expiresAt.toISOString(),
  };
}

function correctionDone(
  direction: 'credit' | 'debit',
  currency: Currency,
  amount: number,
  balance: number,
): MoneyDone {
  return {
    status: 'done',
    message: CORRECTION_DONE(direction, currency, amount, balance),
    isRepeat: false,
    balance,
  };
}

function refundDone(refund: RefundOutcome): MoneyDone {
  return {
    status: 'done',
    message:
      refund.status === 'completed'
        ? REFUND_DONE(refund.amountKopecks, refund.refundedTotalKopecks)
        : REFUND_UNANSWERED(refund.amountKopecks),
    isRepeat: false,
    refund,
  };
}

/**
 * One correction entry under the user's balance lock, in the caller's transaction: the balance
 * before it, or null when its key was used before. A debit the balance cannot pay is refused
 * (409) and the transaction rolls back whole.
 */
async function postCorrection(
  tx: Tx,
  entry: {
    userId: string;
    currency: Currency;
    amount: number;
    description: string;
    reference: string;
    idempotencyKey: string;
    at: Date;
  },
): Promise<{ before: number } | null> {
  const locked = await lockBalances(tx, entry.userId);
  if (!locked) throw notFound(MONEY_ACCOUNT_NOT_FOUND);
  const before = entry.currency === 'rub' ? locked.kopecks : locked.points;
  try {
    const outcome = await postLedgerEntry(tx, {
      userId: entry.userId,
      currency: entry.currency,
      amount: entry.amount,
      kind: 'correction',
      description: entry.description,
      reference: entry.reference,
      idempotencyKey: entry.idempotencyKey,
      createdAt: entry.at,
    });
    return outcome === 'applied' ? { before } : null;
  } catch (error) {
    if (!(error instanceof InsufficientFundsError)) throw error;
    throw new AppError('conflict', DEBIT_REFUSED(entry.currency, before, -entry.amount));
  }
}
