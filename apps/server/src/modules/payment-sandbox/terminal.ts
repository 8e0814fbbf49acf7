import { createHmac, randomBytes } from 'node:crypto';
import { PAYMENT_NOT_FOUND } from '@portal/contracts/messages';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { FetchLike } from '../../adapters/tbank/client.js';
import { hasValidTbankToken } from '../../adapters/tbank/token.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/database.js';
import { printFiscalDocument, receiptProblem } from './fiscal.js';
import { sendSandboxFiscalization, sendSandboxNotification } from './notify.js';
import { type SandboxPaymentRow, sandboxPayments } from './schema.js';

export const SANDBOX_TERMINAL_KEY = 'PortalSandboxDEMO';
export const SANDBOX_PATH = '/sandbox/tbank';

/** Derived from SECRET_KEY, so sandbox signatures are not guessable from the source code. */
export function sandboxPassword(config: Pick<Config, 'SECRET_KEY'>): string {
  return createHmac('sha256', config.SECRET_KEY).update('tbank-sandbox').digest('base64url');
}

/** What every v2 method answers: T-Bank's envelope and the method's own fields. */
export interface SandboxAnswer {
  Success: boolean;
  ErrorCode: string;
  TerminalKey?: string;
  Message?: string;
  Details?: string;
  [field: string]: unknown;
}

export const SANDBOX_METHODS = ['Init', 'GetQr', 'GetState', 'CheckOrder', 'Cancel'] as const;
export type SandboxMethod = (typeof SANDBOX_METHODS)[number];

export interface SandboxTerminalDeps {
  db: Db;
  clock: Clock;
  /** Base of this sandbox as the browser reaches it, e.g. https://portal.example/sandbox/tbank. */
  publicBase: string;
  terminalKey: string;
  password: string;
  /** Sends the notifications: real HTTP POSTs to the portal's NotificationURL. */
  notificationFetch: FetchLike;
  log: FastifyBaseLogger;
}

const refuse = (code: string, message: string, details?: string): SandboxAnswer => ({
  Success: false,
  ErrorCode: code,
  Message: message,
  ...(details ? { Details: details } : {}),
});

const WAITING = new Set(['NEW', 'FORM_SHOWED']);

/** Still waiting for the customer: NEW, or FORM_SHOWED once the page was opened. */
export const isWaiting = (payment: SandboxPaymentRow) => WAITING.has(payment.status);

const MINUTE = 60_000;
/** T-Bank's default payment lifetime and the range it accepts for RedirectDueDate. */
const DEFAULT_LIFETIME_MS = 24 * 60 * MINUTE;
const MIN_LIFETIME_MS = MINUTE;
const MAX_LIFETIME_MS = 90 * 24 * 60 * MINUTE;

/** What remains paid after a partial refund; the whole amount otherwise (see settlement.ts). */
export const reportedAmount = (payment: SandboxPaymentRow) =>
  payment.status === 'PARTIAL_REFUNDED' ? payment.currentAmountKopecks : payment.amountKopecks;

/**
 * A stand-in for one T-Bank acquiring terminal: the v2 methods Init, GetQr, GetState, CheckOrder
 * and Cancel with the same JSON and signatures. Like T-Bank, a payment still waiting at its
 * RedirectDueDate becomes DEADLINE_EXPIRED and can no longer be paid. The portal's provider calls
 * it in the process (`fetch`); routes.ts serves the same methods over HTTP and the checkout page.
 */
export class SandboxTerminal {
  constructor(private readonly deps: SandboxTerminalDeps) {}

  get terminalKey(): string {
    return this.deps.terminalKey;
  }

  /** Signs its answers and notifications; the portal's provider signs its calls with it. */
  get password(): string {
    return this.deps.password;
  }

  /** Where the provider client sends its calls: `<publicBase>/v2/<Method>`. */
  get publicBase(): string {
    return this.deps.publicBase;
  }

  /**
   * The provider client's transport: each call is answered by `answer` in this process, as the
   * HTTP route would answer it, with no request to the portal itself.
   */
  readonly fetch: FetchLike = async (url, init) => {
    const method = new URL(url).pathname.split('/').at(-1);
    if (!SANDBOX_METHODS.includes(method as SandboxMethod)) {
      return Response.json({ message: 'Not Found' }, { status: 404 });
    }
    const body: unknown = JSON.parse(String(init.body ?? '{}'));
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return Response.json({ message: 'Bad Request' }, { status: 400 });
    }
    return Response.json(
      await this.answer(method as SandboxMethod, body as Record<string, unknown>),
    );
  };

  /** Answers one v2 API call as T-Bank would. */
  answer(method: SandboxMethod, body: Record<string, unknown>): Promise<SandboxAnswer> {
    const refusal = this.authenticate(body);
    if (refusal) return Promise.resolve(refusal);
    switch (method) {
      case 'Init':
        return this.init(body);
      case 'GetQr':
        return this.getQr(body);
      case 'GetState':
        return this.getState(body);
      case 'CheckOrder':
        return this.checkOrder(body);
      case 'Cancel':
        return this.cancel(body);
    }
  }

  /**
   * The payment as it stands now: one still waiting past its RedirectDueDate is DEADLINE_EXPIRED
   * from then on. Nothing runs at the deadline itself; whoever looks next sees it expired.
   */
  async expireIfDue(executor: Executor, payment: SandboxPaymentRow): Promise<SandboxPaymentRow> {
    const now = this.deps.clock.now();
    if (!isWaiting(payment) || now < payment.redirectDueDate) return payment;
    const [expired] = await executor
      .update(sandboxPayments)
      .set({ status: 'DEADLINE_EXPIRED', updatedAt: now })
      .where(and(eq(sandboxPayments.id, payment.id), inArray(sandboxPayments.status, [...WAITING])))
      .returning();
    return expired ?? { ...payment, status: 'DEADLINE_EXPIRED' };
  }

  /** The checkout link is the only key to a page: it finds the payment, nothing else does. */
  byCheckoutToken(checkoutToken: string): SQL | undefined {
    return and(
      eq(sandboxPayments.checkoutToken, checkoutToken),
      eq(sandboxPayments.terminalKey, this.deps.terminalKey),
    );
  }

  /**
   * The payment behind a checkout link, as the page shows it: expired if due, and marked
   * FORM_SHOWED the first time the page opens, as T-Bank marks it. Null for an unknown link.
   */
  async openCheckout(checkoutToken: string): Promise<SandboxPaymentRow | null> {
    const { db, clock } = this.deps;
    const [found] = await db
      .select()
      .from(sandboxPayments)
      .where(this.byCheckoutToken(checkoutToken));
    if (!found) return null;
    const payment = await this.expireIfDue(db, found);
    if (payment.status === 'NEW') {
      await db
        .update(sandboxPayments)
        .set({ status: 'FORM_SHOWED', updatedAt: clock.now() })
        .where(and(eq(sandboxPayments.id, payment.id), eq(sandboxPayments.status, 'NEW')));
    }
    return payment;
  }

  /**
   * «Оплатить» or «Отменить» on the checkout page: under the row's lock, a payment still waiting
   * becomes CONFIRMED or CANCELED and the portal is told; any other press changes nothing, so
   * parallel presses pay once. Answers the payment as it stands (null for an unknown link).
   */
  async press(checkoutToken: string, action: 'pay' | 'cancel'): Promise<SandboxPaymentRow | null> {
    const { db, clock } = this.deps;
    const nextStatus = action === 'pay' ? 'CONFIRMED' : 'CANCELED';
    const { payment, isChanged } = await db.transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(sandboxPayments)
        .where(this.byCheckoutToken(checkoutToken))
        .for('update');
      const current = locked && (await this.expireIfDue(tx, locked));
      if (!current || !isWaiting(current)) return { payment: current ?? null, isChanged: false };
      const [updated] = await tx
        .update(sandboxPayments)
        .set({ status: nextStatus, updatedAt: clock.now() })
        .where(eq(sandboxPayments.id, current.id))
        .returning();
      return { payment: updated ?? null, isChanged: true };
    });
    if (payment && isChanged) {
      await this.notify(payment, payment.status, payment.amountKopecks);
      if (payment.status === 'CONFIRMED' && payment.receipt) {
        await this.printReceipt(payment, 'Income', payment.amountKopecks, payment.receipt);
      }
    }
    return payment;
  }

  /**
   * Prints a receipt (a fiscal document from the sandbox's own numbering) and sends the
   * fiscalization notification T-Bank sends after its register has printed one.
   */
  async printReceipt(
    payment: SandboxPaymentRow,
    type: 'Income' | 'IncomeReturn',
    amount: number,
    receipt: unknown,
  ): Promise<void> {
    const { db, clock, notificationFetch, password, log } = this.deps;
    const fiscal = await printFiscalDocument(db, clock.now());
    await sendSandboxFiscalization({ fetch: notificationFetch, password, log }, payment, {
      type,
      amount,
      receipt: receipt as Record<string, unknown>,
      fiscal,
    });
  }

  /** Tells the portal about a change, as T-Bank would (notify.ts). */
  async notify(payment: SandboxPaymentRow, status: string, amount: number): Promise<void> {
    const { db, notificationFetch, password, log } = this.deps;
    await sendSandboxNotification({ db, fetch: notificationFetch, password, log }, payment, {
      status,
      amount,
    });
  }

  /** Checks terminal and token; answers the refusal, or null when the request is genuine. */
  private authenticate(body: Record<string, unknown>): SandboxAnswer | null {
    if (body.TerminalKey !== this.deps.terminalKey) return refuse('501', 'Терминал не найден');
    if (!hasValidTbankToken(body, this.deps.password)) {
      return refuse('204', 'Неверный токен', 'Проверьте пару TerminalKey/SecretKey');
    }
    return null;
  }

  private accepted(fields: Record<string, unknown>): SandboxAnswer {
    return { Success: true, ErrorCode: '0', TerminalKey: this.deps.terminalKey, ...fields };
  }

  private async findPayment(paymentId: unknown): Promise<SandboxPaymentRow | null> {
    const { db, terminalKey } = this.deps;
    const id = Number(paymentId);
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    const [row] = await db
      .select()
      .from(sandboxPayments)
      .where(and(eq(sandboxPayments.id, id), eq(sandboxPayments.terminalKey, terminalKey)));
    return row ? this.expireIfDue(db, row) : null;
  }

  private async init(body: Record<string, unknown>): Promise<SandboxAnswer> {
    const { db, clock, terminalKey, publicBase } = this.deps;
    const amount = body.Amount;
    const orderId = body.OrderId;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
      return refuse('251', 'Неверная сумма');
    }
    if (typeof orderId !== 'string' || orderId.length === 0 || orderId.length > 36) {
      return refuse('9999', 'Неверный OrderId');
    }
    // A terminal with an online register: a receipt, when sent, must add up to the payment.
    const problem = body.Receipt === undefined ? null : receiptProblem(body.Receipt, amount);
    if (problem) return refuse('309', 'Неверные параметры чека', problem);
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    const now = clock.now();
    let redirectDueDate = new Date(now.getTime() + DEFAULT_LIFETIME_MS);
    if (body.RedirectDueDate !== undefined) {
      const due = typeof body.RedirectDueDate === 'string' ? Date.parse(body.RedirectDueDate) : NaN;
      const lifetime = due - now.getTime();
      if (!(lifetime >= MIN_LIFETIME_MS && lifetime <= MAX_LIFETIME_MS)) {
        return refuse('9999', 'Неверный RedirectDueDate', 'От 1 минуты до 90 дней');
      }
      redirectDueDate = new Date(due);
    }
    const [row] = await db
      .insert(sandboxPayments)
      .values({
        checkoutToken: randomBytes(32).toString('base64url'),
        terminalKey,
        orderId,
        amountKopecks: amount,
        currentAmountKopecks: amount,
        description: text(body.Description) ?? '',
        notificationUrl: text(body.NotificationURL),
        successUrl: text(body.SuccessURL),
        failUrl: text(body.FailURL),
        redirectDueDate,
        receipt: body.Receipt ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return this.accepted({
      Status: 'NEW',
      PaymentId: String(row!.id),
      OrderId: orderId,
      Amount: amount,
      // Like T-Bank's own PaymentURL, the address carries a random token, not the PaymentId.
      PaymentURL: `${publicBase}/pay/${row!.checkoutToken}`,
    });
  }

  private async getQr(body: Record<string, unknown>): Promise<SandboxAnswer> {
    const payment = await this.findPayment(body.PaymentId);
    if (!payment) return refuse('7', PAYMENT_NOT_FOUND);
    if (!isWaiting(payment)) return refuse('8', 'Неверный статус транзакции');
    return this.accepted({
      OrderId: payment.orderId,
      PaymentId: payment.id,
      // Stands in for the NSPK link: opening it leads to the same checkout page.
      Data: `${this.deps.publicBase}/pay/${payment.checkoutToken}?via=sbp`,
    });
  }

  private async getState(body: Record<string, unknown>): Promise<SandboxAnswer> {
    const payment = await this.findPayment(body.PaymentId);
    if (!payment) return refuse('7', PAYMENT_NOT_FOUND);
    return this.accepted({
      Status: payment.status,
      PaymentId: String(payment.id),
      OrderId: payment.orderId,
      Amount: reportedAmount(payment),
    });
  }

  private async checkOrder(body: Record<string, unknown>): Promise<SandboxAnswer> {
    const { db, terminalKey } = this.deps;
    const orderId = body.OrderId;
    if (typeof orderId !== 'string' || orderId.length === 0 || orderId.length > 36) {
      return refuse('9999', 'Неверный OrderId');
    }
    const rows = await db
      .select()
      .from(sandboxPayments)
      .where(
        and(eq(sandboxPayments.terminalKey, terminalKey), eq(sandboxPayments.orderId, orderId)),
      )
      .orderBy(asc(sandboxPayments.id));
    // An order is known only by its payments: with none, it is as unknown as a wrong PaymentId.
    if (rows.length === 0) return refuse('7', 'Заказ не найден');
    const current = await Promise.all(rows.map((row) => this.expireIfDue(db, row)));
    return this.accepted({
      OrderId: orderId,
      Payments: current.map((payment) => ({
        PaymentId: String(payment.id),
        Amount: reportedAmount(payment),
        Status: payment.status,
        Success: true,
        ErrorCode: '0',
      })),
    });
  }

  /** Cancels a waiting payment, or refunds a paid one (all of it, or `Amount`). */
  private async cancel(body: Record<string, unknown>): Promise<SandboxAnswer> {
    const { db, clock, terminalKey } = this.deps;
    const requested = body.Amount;
    if (
      requested !== undefined &&
      (typeof requested !== 'number' || !Number.isSafeInteger(requested) || requested <= 0)
    ) {
      return refuse('251', 'Неверная сумма');
    }
    const refundReceipt = body.Receipt;
    const outcome = await db.transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(sandboxPayments)
        .where(
          and(
            eq(sandboxPayments.id, Number(body.PaymentId) || 0),
            eq(sandboxPayments.terminalKey, terminalKey),
          ),
        )
        .for('update');
      if (!locked) return refuse('7', PAYMENT_NOT_FOUND);
      const payment = await this.expireIfDue(tx, locked);
      let status: string;
      let remaining = payment.currentAmountKopecks;
      if (isWaiting(payment)) {
        status = 'CANCELED';
      } else if (payment.status === 'CONFIRMED' || payment.status === 'PARTIAL_REFUNDED') {
        const refund = typeof requested === 'number' ? requested : remaining;
        if (refund > remaining) return refuse('8', 'Сумма возврата больше суммы платежа');
        // The refund receipt's total must equal the refunded amount.
        const problem = refundReceipt === undefined ? null : receiptProblem(refundReceipt, refund);
        if (problem) return refuse('309', 'Неверные параметры чека', problem);
        remaining -= refund;
        status = remaining === 0 ? 'REFUNDED' : 'PARTIAL_REFUNDED';
      } else {
        return refuse('8', 'Неверный статус транзакции');
      }
      const [updated] = await tx
        .update(sandboxPayments)
        .set({ status, currentAmountKopecks: remaining, updatedAt: clock.now() })
        .where(eq(sandboxPayments.id, payment.id))
        .returning();
      return { payment: updated!, originalAmount: payment.currentAmountKopecks };
    });
    if ('Success' in outcome) return outcome;
    const { payment, originalAmount } = outcome;
    await this.notify(payment, payment.status, reportedAmount(payment));
    const refunded = originalAmount - payment.currentAmountKopecks;
    const isRefund = payment.status === 'REFUNDED' || payment.status === 'PARTIAL_REFUNDED';
    // A refund is fiscalised with the receipt Cancel brought; a whole refund without one, with
    // the payment's own receipt, as T-Bank does.
    const receipt =
      refundReceipt ?? (refunded === payment.amountKopecks ? payment.receipt : undefined);
    if (isRefund && receipt) await this.printReceipt(payment, 'IncomeReturn', refunded, receipt);
    return this.accepted({
      Status: payment.status,
      PaymentId: String(payment.id),
      OrderId: payment.orderId,
      OriginalAmount: originalAmount,
      NewAmount: payment.currentAmountKopecks,
    });
  }
}
