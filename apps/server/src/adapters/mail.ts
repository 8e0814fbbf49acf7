/**
 * Outgoing mail through an outbox.
 *
 * API (`app.deps.mail`):
 *
 *   await mail.enqueue({ to, subject, text, html, expiresAt? }, tx);
 *
 * Write the letter in the SAME transaction as the change that causes it: it exists exactly when
 * the change committed. Delivery happens after commit, off the request: the sender is woken when
 * the request that enqueued it has been answered (and polls every few seconds for retries and
 * for letters written outside a request), so a slow or failing SMTP server never holds a request
 * nor fails it. `composeLetter` (mail-letter.ts) builds a branded Russian letter in HTML and text.
 *
 * A letter is never given up while it still matters:
 * - A failed send is retried with growing pauses (30 s, 1 min, 2 min … then every hour; the first
 *   is MAIL_FIRST_RETRY_SECONDS), for as long as the outage lasts.
 * - A letter with `expiresAt` (every letter carrying a one-time code: the code's expiry) is not
 *   sent after that moment: it is marked `expired`, since its code no longer works and the user
 *   asks for a new one. Its retries never wait past it, so it is marked when its time comes.
 * - A letter without `expiresAt` (a notice) is given up (`failed`) after 5 days of failed
 *   attempts, the time mail servers commonly keep trying before they bounce a letter.
 * - Each letter expired or given up is logged once as an error (its id, subject, masked address,
 *   last error). Failed attempts are not errors: one warning when sending starts to fail, one
 *   info line when it works again, the attempts in between at debug level only.
 * - `mailOutboxStats(db, now)` answers the backlog and the losses for the operator's metrics.
 * - `mailOutboxData` says what an account's erasure and the hourly purge take from the outbox
 *   (db/data-owners.ts); the core registers it.
 *
 *   await mail.flush();   // deliver every due letter now and wait (tests, scripts, shutdown)
 *
 * The same loop delivers other kinds of items, so everything that leaves the portal after a
 * change is retried one way (one claim, one lease, one schedule of pauses):
 *
 *   mail.deliverKind('oidc_backchannel_logout', async (payload) => { … });  // once, at start
 *   await mail.enqueueItem('oidc_backchannel_logout', { clientId, sub, sid }, tx);
 *
 * A throw of the deliverer is a failed attempt, retried as a letter is; a kind no deliverer was
 * registered for in this process waits for a process that has one (or is given up in 5 days).
 *
 * Transport: SMTP through nodemailer when SMTP_URL is set (bodies are dropped once a letter is
 * sent or expired: they may hold codes); otherwise the dev mailbox — letters stay in the outbox
 * table and are listed at /dev/mail.
 */
import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';
import { type DataOwner, purgeEach } from '../db/data-owners.js';
import type { Db, Executor } from '../db/database.js';
import type { Clock } from './clock.js';
import { type Letter, maskEmail } from './mail-letter.js';
import { type MailOutboxRow, mailOutbox } from './mail-schema.js';

export interface Mailer {
  /** Writes the letter to the outbox with `executor` (pass the transaction of the change). */
  enqueue(letter: Letter, executor?: Executor): Promise<void>;
  /** Delivers every letter that is due now and resolves when done. */
  flush(): Promise<void>;
  /** Where letters go, for the start line: 'SMTP smtp.example.com:587' or 'почтовый ящик …'. */
  describe(): string;
  readonly isDevMailbox: boolean;
}

export interface MailTransport {
  readonly isDevMailbox: boolean;
  send(letter: Letter): Promise<void>;
  describe(): string;
  close(): Promise<void>;
}

interface MailLog {
  debug(obj: object, message: string): void;
  info(obj: object, message: string): void;
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

class SmtpTransport implements MailTransport {
  readonly isDevMailbox = false;
  /** Made at the first letter: nodemailer is loaded then, not at start. */
  private transporter: Promise<Transporter> | null = null;

  constructor(
    private readonly url: string,
    private readonly from: string,
  ) {}

  private connection(): Promise<Transporter> {
    this.transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: this.url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    );
    return this.transporter;
  }

  async send(letter: Letter): Promise<void> {
    const { to, subject, text, html } = letter;
    await (await this.connection()).sendMail({ from: this.from, to, subject, text, html });
  }

  describe(): string {
    const url = new URL(this.url);
    return `SMTP ${url.hostname}${url.port ? `:${url.port}` : ''}`;
  }

  async close(): Promise<void> {
    (await this.transporter)?.close();
  }
}

/** No delivery at all: the outbox row is the letter, shown at /dev/mail. */
class DevMailboxTransport implements MailTransport {
  readonly isDevMailbox = true;

  constructor(private readonly publicUrl: string) {}

  async send(): Promise<void> {}

  describe(): string {
    return `почтовый ящик разработчика ${new URL('/dev/mail', this.publicUrl).toString()}`;
  }

  async close(): Promise<void> {}
}

export function createMailTransport(config: Config): MailTransport {
  return config.SMTP_URL
    ? new SmtpTransport(config.SMTP_URL, config.MAIL_FROM)
    : new DevMailboxTransport(config.PUBLIC_URL);
}

const HOUR_MS = 3_600_000;

/** The outbox's own kind of item; any other is delivered by its registered deliverer. */
const LETTER = 'letter';

/** Delivers one item of a kind other than a letter; a throw is a failed attempt. */
export type ItemDeliverer = (payload: Record<string, unknown>) => Promise<void>;

const OUTBOX_RULES = {
  pollIntervalMs: 5_000,
  batchSize: 10,
  firstRetryMs: 30_000,
  maxRetryMs: HOUR_MS,
  /**
   * A letter without an expiry is tried this long, then given up: the time mail servers commonly
   * keep a letter before they bounce it. Longer, a notice (a changed password) is stale news.
   */
  giveUpAfterMs: 5 * 24 * HOUR_MS,
  /** A claimed letter whose sender died is picked up again after this long. */
  leaseMs: 120_000,
} as const;

/** How long a response keeps waking the sender for a letter it has not seen (rolled back?). */
const AWAIT_COMMIT_MS = 30_000;

export function retryDelayMs(attempts: number, firstRetryMs: number = OUTBOX_RULES.firstRetryMs) {
  return Math.min(OUTBOX_RULES.maxRetryMs, firstRetryMs * 2 ** (attempts - 1));
}

export interface OutboxOptions {
  /** The first pause before a retry (MAIL_FIRST_RETRY_SECONDS); default 30 s. */
  firstRetryMs?: number;
}

/** The outbox and its sender. One per process; several processes share the table safely. */
export class MailOutbox implements Mailer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /**
   * Letters this process enqueued and no pass has claimed yet (id → when, in real time). A pass
   * may run before the enqueuing transaction commits and miss its letter; the entry then stays
   * and the next response wakes the sender again. Entries of rolled-back letters age out.
   */
  private readonly awaiting = new Map<string, number>();
  private readonly firstRetryMs: number;
  /** Per kind, set while sends fail (this process's view), so an outage is warned about once. */
  private readonly outages = new Map<string, { since: Date; failedAttempts: number }>();
  /** How each kind of item other than a letter is delivered (`deliverKind`). */
  private readonly deliverers = new Map<string, ItemDeliverer>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly transport: MailTransport,
    private readonly log: MailLog,
    options: OutboxOptions = {},
  ) {
    this.firstRetryMs = options.firstRetryMs ?? OUTBOX_RULES.firstRetryMs;
  }

  get isDevMailbox(): boolean {
    return this.transport.isDevMailbox;
  }

  describe(): string {
    return this.transport.describe();
  }

  async enqueue(letter: Letter, executor: Executor = this.db): Promise<void> {
    const now = this.clock.now();
    const [row] = await executor
      .insert(mailOutbox)
      .values({
        toAddress: letter.to,
        subject: letter.subject,
        textBody: letter.text,
        htmlBody: letter.html,
        nextAttemptAt: now,
        createdAt: now,
        expiresAt: letter.expiresAt ?? null,
      })
      .returning({ id: mailOutbox.id });
    if (row) this.awaiting.set(row.id, Date.now());
    // Outside a transaction the row is already visible: no need to wait for the response.
    if (executor === this.db) this.kick();
  }

  /**
   * Writes an item of another kind than a letter with `executor` (the change's transaction); the
   * deliverer registered for `kind` gets `payload` when it is due, and again after each failure.
   */
  async enqueueItem(
    kind: string,
    payload: Record<string, unknown>,
    executor: Executor = this.db,
  ): Promise<void> {
    const now = this.clock.now();
    const [row] = await executor
      .insert(mailOutbox)
      .values({
        kind,
        payload,
        toAddress: '',
        subject: '',
        textBody: '',
        htmlBody: '',
        nextAttemptAt: now,
        createdAt: now,
      })
      .returning({ id: mailOutbox.id });
    if (row) this.awaiting.set(row.id, Date.now());
    if (executor === this.db) this.kick();
  }

  /** How items of `kind` are delivered: a throw is a failed attempt, retried later. */
  deliverKind(kind: string, deliver: ItemDeliverer): void {
    if (kind === LETTER) throw new Error('letters are delivered by the transport');
    this.deliverers.set(kind, deliver);
  }

  /** Called after every response: the transaction that enqueued has committed by then. */
  kickIfEnqueued(): void {
    if (this.awaiting.size === 0) return;
    const tooOld = Date.now() - AWAIT_COMMIT_MS;
    for (const [id, at] of this.awaiting) if (at < tooOld) this.awaiting.delete(id);
    if (this.awaiting.size > 0) this.kick();
  }

  /** Starts polling for retries and for letters enqueued outside requests. */
  start(): void {
    if (this.timer || this.stopped) return;
    // A retry pause shorter than the poll would otherwise wait for the poll.
    const every = Math.min(OUTBOX_RULES.pollIntervalMs, this.firstRetryMs);
    this.timer = setInterval(() => this.kick(), every);
    this.timer.unref();
  }

  /** Stops polling, waits for the delivery in progress and closes the transport. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => {});
    await this.transport.close();
  }

  /** Starts a delivery pass unless one is running; a running one goes round once more. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.deliverAll()
      .catch((error) => this.log.warn({ err: error }, 'mail outbox pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async flush(): Promise<void> {
    while (this.running) await this.running;
    await this.deliverAll();
    // A pass the poll started meanwhile may hold a due letter this one skipped: wait for it too.
    while (this.running) await this.running;
  }

  private async deliverAll(): Promise<void> {
    while (!this.stopped) {
      const claimed = await this.claimDue();
      for (const letter of claimed) this.awaiting.delete(letter.id);
      for (const letter of claimed) await this.deliver(letter);
      if (claimed.length < OUTBOX_RULES.batchSize) return;
    }
  }

  /** Claims due letters; SKIP LOCKED keeps two processes from sending the same one. */
  private async claimDue() {
    const now = this.clock.now();
    const due = this.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        or(
          and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, now)),
          and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.lockedUntil, now)),
        ),
      )
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(OUTBOX_RULES.batchSize)
      .for('update', { skipLocked: true });
    return this.db
      .update(mailOutbox)
      .set({ status: 'sending', lockedUntil: new Date(now.getTime() + OUTBOX_RULES.leaseMs) })
      .where(inArray(mailOutbox.id, due))
      .returning();
  }

  private async deliver(row: MailOutboxRow): Promise<void> {
    if (row.expiresAt && row.expiresAt <= this.clock.now()) {
      await this.finish(row, 'expired', row.attempts);
      return;
    }
    try {
      await this.send(row);
    } catch (error) {
      await this.failed(row, error);
      return;
    }
    await this.finish(row, 'sent', row.attempts + 1);
    const outage = this.outages.get(row.kind);
    if (outage) {
      this.log.info(
        { kind: row.kind, failedAttempts: outage.failedAttempts, since: outage.since },
        `${row.kind === LETTER ? 'mail' : row.kind} is being delivered again`,
      );
      this.outages.delete(row.kind);
    }
    if (this.transport.isDevMailbox && row.kind === LETTER) {
      this.log.info({ letterId: row.id }, `письмо сохранено: ${this.transport.describe()}`);
    }
  }

  /** A letter through the transport, any other item through its kind's deliverer. */
  private async send(row: MailOutboxRow): Promise<void> {
    if (row.kind === LETTER) {
      await this.transport.send({
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
      });
      return;
    }
    const deliver = this.deliverers.get(row.kind);
    if (!deliver) throw new Error(`no deliverer for ${row.kind} in this process`);
    await deliver(row.payload ?? {});
  }

  /** A failed attempt: the letter waits for its next try, or is given up when its time is up. */
  private async failed(row: MailOutboxRow, error: unknown): Promise<void> {
    const attempts = row.attempts + 1;
    const now = this.clock.now();
    const lastError = describeError(error);
    if (!row.expiresAt && now.getTime() - row.createdAt.getTime() >= OUTBOX_RULES.giveUpAfterMs) {
      await this.finish({ ...row, lastError }, 'failed', attempts);
      return;
    }
    const retryAt = new Date(now.getTime() + retryDelayMs(attempts, this.firstRetryMs));
    await this.db
      .update(mailOutbox)
      .set({
        status: 'pending',
        attempts,
        lockedUntil: null,
        // A letter that expires before its next try is due at its expiry, to be marked then.
        nextAttemptAt: row.expiresAt && row.expiresAt < retryAt ? row.expiresAt : retryAt,
        lastError,
      })
      .where(eq(mailOutbox.id, row.id));
    const about = { letterId: row.id, kind: row.kind, attempts, error: maskAddresses(lastError) };
    const outage = this.outages.get(row.kind);
    if (outage) {
      outage.failedAttempts += 1;
      this.log.debug(about, 'letter not delivered, will retry');
    } else {
      // Once per outage: a warning on every retry of every letter would bury everything else.
      this.outages.set(row.kind, { since: now, failedAttempts: 1 });
      this.log.warn(
        about,
        row.kind === LETTER
          ? 'mail is not being delivered; letters wait in the outbox and are retried'
          : `${row.kind} is not being delivered; items wait in the outbox and are retried`,
      );
    }
  }

  /** The letter's last state: sent, expired unsent, or given up. Losses are logged as errors. */
  private async finish(
    row: MailOutboxRow,
    status: 'sent' | 'expired' | 'failed',
    attempts: number,
  ): Promise<void> {
    const now = this.clock.now();
    await this.db
      .update(mailOutbox)
      .set({
        status,
        attempts,
        lockedUntil: null,
        lastError: status === 'sent' ? null : row.lastError,
        ...(status === 'sent' ? { sentAt: now } : {}),
        // Sent or expired letters may hold codes: keep only what an audit needs, unless the
        // outbox itself is the mailbox. A notice given up keeps its text for the operator.
        ...(status !== 'failed' && !this.transport.isDevMailbox
          ? { textBody: '', htmlBody: '' }
          : {}),
      })
      .where(eq(mailOutbox.id, row.id));
    if (status === 'sent') return;
    this.log.error(
      {
        letterId: row.id,
        to: maskEmail(row.toAddress),
        subject: row.subject,
        attempts,
        createdAt: row.createdAt,
        lastError: row.lastError ? maskAddresses(row.lastError) : null,
      },
      status === 'expired'
        ? 'letter expired before it could be sent (its code no longer works); not sent'
        : 'letter given up after days of failed attempts; not sent',
    );
  }
}

/** The error of a failed send as stored in `last_error`. */
function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}

const ADDRESS = /[^\s<>@"',;:]{1,64}@[^\s<>@"',;:]+/g;

/** An SMTP error names the recipient ("550 <ivan@example.com>: no such user"): mask it in logs. */
function maskAddresses(text: string): string {
  return text.replace(ADDRESS, (address) => maskEmail(address));
}

export interface MailOutboxStats {
  /** Letters waiting to be sent (including the ones being sent right now). */
  pending: number;
  /** Letters given up after days of failed attempts (kept 30 days, modules/housekeeping). */
  failed: number;
  /** Code letters not sent because their code expired first (kept 30 days). */
  expired: number;
  /** Age of the oldest letter waiting; 0 when none waits. */
  oldestPendingAgeSeconds: number;
}

/** The outbox as the operator watches it: the backlog and the letters lost. */
export async function mailOutboxStats(db: Executor, now: Date): Promise<MailOutboxStats> {
  const rows = await db
    .select({
      status: mailOutbox.status,
      count: sql<number>`count(*)::int`,
      oldest: sql<string | null>`min(${mailOutbox.createdAt})`,
    })
    .from(mailOutbox)
    // A literal, not a parameter: the planner then surely reads mail_outbox_unsent_idx, whose
    // condition this is (0.3 ms instead of 240 ms over 300,000 sent letters).
    .where(sql`${mailOutbox.status} <> 'sent' AND ${mailOutbox.kind} = 'letter'`)
    .groupBy(mailOutbox.status);
  const stats: MailOutboxStats = { pending: 0, failed: 0, expired: 0, oldestPendingAgeSeconds: 0 };
  let oldest: number | undefined;
  for (const row of rows) {
    const count = Number(row.count);
    if (row.status === 'failed' || row.status === 'expired') {
      stats[row.status] += count;
      continue;
    }
    stats.pending += count;
    const createdAt = row.oldest ? new Date(row.oldest).getTime() : undefined;
    if (createdAt !== undefined && (oldest === undefined || createdAt < oldest)) oldest = createdAt;
  }
  if (oldest !== undefined) {
    stats.oldestPendingAgeSeconds = Math.max(0, Math.floor((now.getTime() - oldest) / 1000));
  }
  return stats;
}

/** Sent, failed and expired letters are kept this long (the metrics count the failed ones). */
const LETTERS_KEPT_MS = 30 * 24 * 60 * 60_000;

/** The outbox's part of an erasure and of the purge (db/data-owners.ts). */
export const mailOutboxData: DataOwner = {
  module: 'core',
  tables: [{ name: 'mail_outbox', onErasure: 'erase' }],
  async erase(tx, { userId, emailKey }) {
    // To the account's address and to any address its codes carried (a new e-mail): the codes
    // (modules/auth) are still there, since the core's owner runs first.
    await tx.execute(sql`DELETE FROM mail_outbox WHERE lower(to_address) = ${emailKey}
    OR lower(to_address) IN (
      SELECT lower(value) FROM one_time_codes, jsonb_each_text(coalesce(payload, '{}'::jsonb))
      WHERE user_id = ${userId})`);
  },
  purge(db, now) {
    const kept = new Date(now.getTime() - LETTERS_KEPT_MS).toISOString();
    return purgeEach(db, {
      mail_outbox: sql`DELETE FROM mail_outbox
      WHERE status IN ('sent', 'failed', 'expired') AND created_at < ${kept}`,
    });
  },
};
