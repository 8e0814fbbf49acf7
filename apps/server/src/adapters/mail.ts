/**
 * Outgoing mail through an outbox (DESIGN §6, issue 3 "Mail").
 *
 * API (`app.deps.mail`):
 *
 *   await mail.enqueue({ to, subject, text, html }, tx);
 *
 * Write the letter in the SAME transaction as the change that causes it: it exists exactly when
 * the change committed. Delivery happens after commit, off the request: the sender is woken when
 * the request that enqueued it has been answered (and polls every few seconds for retries and
 * for letters written outside a request), so a slow or failing SMTP server never holds a request
 * nor fails it. A failed send is retried with growing pauses (30 s, 1 min, 2 min … 1 h; the first
 * is MAIL_FIRST_RETRY_SECONDS), then marked failed. `composeLetter` (mail-letter.ts) builds a
 * branded Russian letter in HTML and text.
 *
 *   await mail.flush();   // deliver every due letter now and wait (tests, scripts, shutdown)
 *
 * Transport: SMTP through nodemailer when SMTP_URL is set (bodies are dropped after delivery:
 * they may hold codes); otherwise the dev mailbox — letters stay in the outbox table and are
 * listed at /dev/mail.
 */
import { and, asc, eq, inArray, lte, or } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import type { Db, Executor } from '../db/database.js';
import type { Clock } from './clock.js';
import { mailOutbox } from './mail-schema.js';

export interface Letter {
  to: string;
  subject: string;
  text: string;
  html: string;
}

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
  info(obj: object, message: string): void;
  warn(obj: object, message: string): void;
}

class SmtpTransport implements MailTransport {
  readonly isDevMailbox = false;
  private readonly transporter;

  constructor(
    private readonly url: string,
    private readonly from: string,
  ) {
    this.transporter = nodemailer.createTransport({
      url,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(letter: Letter): Promise<void> {
    await this.transporter.sendMail({ from: this.from, ...letter });
  }

  describe(): string {
    const url = new URL(this.url);
    return `SMTP ${url.hostname}${url.port ? `:${url.port}` : ''}`;
  }

  async close(): Promise<void> {
    this.transporter.close();
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

const OUTBOX_RULES = {
  pollIntervalMs: 5_000,
  batchSize: 10,
  maxAttempts: 8,
  firstRetryMs: 30_000,
  maxRetryMs: 3_600_000,
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
      })
      .returning({ id: mailOutbox.id });
    if (row) this.awaiting.set(row.id, Date.now());
    // Outside a transaction the row is already visible: no need to wait for the response.
    if (executor === this.db) this.kick();
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

  private async deliver(row: typeof mailOutbox.$inferSelect): Promise<void> {
    const letter = {
      to: row.toAddress,
      subject: row.subject,
      text: row.textBody,
      html: row.htmlBody,
    };
    try {
      await this.transport.send(letter);
    } catch (error) {
      const attempts = row.attempts + 1;
      const isLast = attempts >= OUTBOX_RULES.maxAttempts;
      const now = this.clock.now();
      await this.db
        .update(mailOutbox)
        .set({
          status: isLast ? 'failed' : 'pending',
          attempts,
          lockedUntil: null,
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts, this.firstRetryMs)),
          lastError: String((error as Error).message ?? error).slice(0, 500),
        })
        .where(eq(mailOutbox.id, row.id));
      this.log.warn(
        { letterId: row.id, attempts, err: error },
        isLast ? 'letter not delivered, giving up' : 'letter not delivered, will retry',
      );
      return;
    }
    await this.db
      .update(mailOutbox)
      .set({
        status: 'sent',
        attempts: row.attempts + 1,
        lockedUntil: null,
        sentAt: this.clock.now(),
        lastError: null,
        // Delivered letters may hold codes: keep only what an audit needs, unless the outbox
        // itself is the mailbox.
        ...(this.transport.isDevMailbox ? {} : { textBody: '', htmlBody: '' }),
      })
      .where(eq(mailOutbox.id, row.id));
    if (this.transport.isDevMailbox) {
      this.log.info({ letterId: row.id }, `письмо сохранено: ${this.transport.describe()}`);
    }
  }
}
