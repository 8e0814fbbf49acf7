/**
 * The support desk: the staff's side of the portal (apps/server/src/modules/staff, the web app's
 * features/staff). Staff are portal accounts with one role; the command line
 * (`npm run admin`) and these calls run the same services.
 *
 * Every call answers 404 to anyone who is not staff (a customer's token, no token), so the area
 * gives no hint that it exists. A staff call without a fresh proof answers 403 with
 * `reason: 'staff_proof_required'`; the page then asks for a passkey or the authenticator's code
 * and repeats the call.
 */
import { z } from 'zod';
import { emailSchema, roublesSchema, timestampSchema } from './common';
import { passkeyAssertionSchema } from './passkeys';
import { securityEventKindSchema } from './security-log';
import { receiptAnswerSchema } from './wallet';

/** Base of the staff calls (under the page's origin, or STAFF_URL's when it is set). */
export const STAFF_API = '/staffms/api/Staff';

/**
 * The staff area's pages. Not in PAGES (page-paths.ts): the server answers them as it answers an
 * unknown address, and the web app shows them only to staff, so a customer learns nothing.
 */
export const STAFF_PAGES = {
  search: '/staff',
  account: '/staff/accounts/:id',
  money: '/staff/money',
  roles: '/staff/roles',
  audit: '/staff/audit',
} as const;

/** How long a proof lets a staff member work before the next one is asked. */
export const STAFF_PROOF_MINUTES = 10;

/** Default of STAFF_APPROVAL_ROUBLES: money above it moves only when a second person approves. */
export const STAFF_APPROVAL_ROUBLES_DEFAULT = 1000;

/** A request for money not approved within this many hours expires. */
export const MONEY_REQUEST_HOURS = 24;

/** Rows of a search or audit page. */
export const STAFF_PAGE_SIZE = 50;

/**
 * The roles, each holding everything of the one before it: `finance` is support plus money,
 * `admin` is finance plus roles and the audit. One role per account.
 */
export const STAFF_ROLES = ['support', 'finance', 'admin'] as const;
export const staffRoleSchema = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof staffRoleSchema>;

export const STAFF_ROLE_NAMES: Record<StaffRole, string> = {
  support: 'Поддержка',
  finance: 'Финансы',
  admin: 'Администратор',
};

/** What each capability needs at least; the server's guard and the web's menu read this one table. */
export const STAFF_ABILITIES = {
  /** Find and open accounts; unlock, end sessions, resend letters, reset factors, block. */
  support: 'support',
  /** Refunds, corrections, reconciling a payment; approving another member's request. */
  money: 'finance',
  /** Granting and taking back roles; the audit. */
  admin: 'admin',
} as const satisfies Record<string, StaffRole>;
export type StaffAbility = keyof typeof STAFF_ABILITIES;

export function staffCan(role: StaffRole, ability: StaffAbility): boolean {
  return STAFF_ROLES.indexOf(role) >= STAFF_ROLES.indexOf(STAFF_ABILITIES[ability]);
}

// ---------------------------------------------------------------- messages

export const STAFF_REASON_REQUIRED = 'Укажите причину или номер обращения';
export const STAFF_PROOF_REQUIRED =
  'Подтвердите, что это вы: ключом доступа или кодом из приложения-аутентификатора';
export const STAFF_NEEDS_FACTOR =
  'Сотруднику нужен ключ доступа или приложение-аутентификатор. Подключите его в профиле';
export const STAFF_OWN_REQUEST = 'Свой запрос одобряет другой сотрудник';
export const STAFF_REQUEST_CLOSED = 'Запрос уже одобрен, отклонён или истёк';

/** Why a change was made: a sentence or a ticket number; required for every change. */
export const staffReasonSchema = z
  .string({ error: STAFF_REASON_REQUIRED })
  .trim()
  .min(3, STAFF_REASON_REQUIRED)
  .max(500, 'Не больше 500 знаков');

/** The body of every change that needs nothing but its reason. */
export const staffReasonRequestSchema = z.object({ reason: staffReasonSchema });
export type StaffReasonRequest = z.infer<typeof staffReasonRequestSchema>;

export const staffDoneAnswerSchema = z.object({ message: z.string() });
export type StaffDoneAnswer = z.infer<typeof staffDoneAnswerSchema>;

// ---------------------------------------------------------------- who am I, the proof

/** `GET …/me`: the member's role, how they can prove themselves, and until when they are proved. */
export const staffMeAnswerSchema = z.object({
  userId: z.string(),
  username: z.string(),
  role: staffRoleSchema,
  /** Empty: the member must first add a passkey or the authenticator (STAFF_NEEDS_FACTOR). */
  proofMethods: z.array(z.enum(['passkey', 'authenticator'])),
  /** null: no proof in force; every other call answers `staff_proof_required`. */
  provenUntil: timestampSchema.nullable(),
});
export type StaffMeAnswer = z.infer<typeof staffMeAnswerSchema>;

/** `POST …/proof`: the authenticator's code (a password or a mailed code is not enough here). */
export const staffCodeProofRequestSchema = z.object({ code: z.string().trim().min(1) });
/**
 * `POST …/proof/passkey/options` gives WebAuthn request options (as passkeys.ts's sign-in does);
 * `POST …/proof/passkey` takes the browser's answer `{ credential }`.
 */
export const staffProofAnswerSchema = z.object({ provenUntil: timestampSchema });
/** `POST …/proof/passkey`: the browser's answer to the options (added with the server). */
export const staffPasskeyProofRequestSchema = z.object({ credential: passkeyAssertionSchema });
export type StaffProofAnswer = z.infer<typeof staffProofAnswerSchema>;

// ---------------------------------------------------------------- finding an account

/**
 * `GET …/accounts?q=&page=`: by e-mail, username, id, phone, Telegram id or payment id (exact),
 * or part of an e-mail or a name; newest accounts first.
 */
export const staffSearchQuerySchema = z.object({
  q: z.string().trim().min(1, 'Введите e-mail, имя, id, телефон, Telegram id или номер платежа'),
  page: z.coerce.number().int().min(1).default(1),
});
export const staffAccountHitSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  fullName: z.string().nullable(),
  createdAt: timestampSchema,
  isBlocked: z.boolean(),
  /** What matched: shown beside the row («платёж 123», «Telegram»). */
  matchedBy: z.enum(['id', 'email', 'username', 'phone', 'telegram', 'payment', 'partial']),
});
export type StaffAccountHit = z.infer<typeof staffAccountHitSchema>;
export const staffSearchAnswerSchema = z.object({
  items: z.array(staffAccountHitSchema),
  page: z.number(),
  hasMore: z.boolean(),
});
export type StaffSearchAnswer = z.infer<typeof staffSearchAnswerSchema>;

// ---------------------------------------------------------------- one account

/** `GET …/accounts/:id`: opening it is recorded in the audit (personal data were seen). */
export const staffAccountAnswerSchema = z.object({
  profile: z.object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    fullName: z.string().nullable(),
    phone: z.string().nullable(),
    telegramId: z.string().nullable(),
    isEmailConfirmed: z.boolean(),
    createdAt: timestampSchema,
    blockedAt: timestampSchema.nullable(),
    blockedReason: z.string().nullable(),
    deletionScheduledAt: timestampSchema.nullable(),
    /** Wrong passwords or codes have paused sign-in until then (unlock ends it). */
    signInPausedUntil: timestampSchema.nullable(),
    hasAuthenticator: z.boolean(),
    passkeyCount: z.number(),
    staffRole: staffRoleSchema.nullable(),
  }),
  balances: z.object({ rub: z.number(), points: z.number() }),
  sessions: z.array(
    z.object({
      id: z.string(),
      device: z.string(),
      ip: z.string().nullable(),
      site: z.string().nullable(),
      createdAt: timestampSchema,
      lastSeenAt: timestampSchema.nullable(),
    }),
  ),
  securityLog: z.array(
    z.object({ kind: securityEventKindSchema, at: timestampSchema, ip: z.string().nullable() }),
  ),
  payments: z.array(
    z.object({
      id: z.string(),
      amount: z.number(),
      status: z.string(),
      method: z.string().nullable(),
      createdAt: timestampSchema,
      refunded: z.number(),
    }),
  ),
  ledger: z.array(
    z.object({
      at: timestampSchema,
      kind: z.string(),
      currency: z.enum(['rub', 'points']),
      amount: z.number(),
      description: z.string().nullable(),
    }),
  ),
  letters: z.array(
    z.object({
      id: z.string(),
      subject: z.string(),
      status: z.enum(['pending', 'sent', 'failed']),
      createdAt: timestampSchema,
      attempts: z.number(),
    }),
  ),
  staffActions: z.array(z.lazy(() => staffAuditRowSchema)),
});
export type StaffAccountAnswer = z.infer<typeof staffAccountAnswerSchema>;

/**
 * `GET …/payments/:id/receipts` (support, proven): the payment's receipts, the top-up's and each
 * refund's, in the order they were printed, each as the customer's receipt page reads it. Opening
 * them is recorded in the audit (`receipts_opened`, on the payer's account).
 */
export const staffReceiptsAnswerSchema = z.object({ items: z.array(receiptAnswerSchema) });
export type StaffReceiptsAnswer = z.infer<typeof staffReceiptsAnswerSchema>;

/**
 * The account's actions, each `POST …/accounts/:id/<action>` with `{ reason }`:
 * unlock, end-sessions, block, unblock. Resetting the second factors is two calls: …/factor-reset/code
 * mails the customer a code, …/factor-reset takes `{ reason, code }` the customer read out.
 * A letter: `POST …/letters/:id/resend` `{ reason }`.
 */
export const STAFF_ACCOUNT_ACTIONS = ['unlock', 'end-sessions', 'block', 'unblock'] as const;
export type StaffAccountAction = (typeof STAFF_ACCOUNT_ACTIONS)[number];
export const staffFactorResetRequestSchema = z.object({
  reason: staffReasonSchema,
  code: z.string().trim().min(1, 'Введите код из письма клиента'),
});

// ---------------------------------------------------------------- money

/**
 * `POST …/accounts/:id/correction`: a credit or a debit of roubles or points;
 * `POST …/payments/:id/refund`: all of a payment or `amount` of it. Above STAFF_APPROVAL_ROUBLES
 * either becomes a request another finance member approves (`pending`), else it is done at once.
 * The idempotency key makes a repeated click one change.
 */
export const staffCorrectionRequestSchema = z.object({
  direction: z.enum(['credit', 'debit']),
  currency: z.enum(['rub', 'points']),
  amount: roublesSchema.refine((amount) => amount > 0, 'Сумма должна быть больше нуля'),
  reason: staffReasonSchema,
  idempotencyKey: z.string().min(8).max(100),
});
export type StaffCorrectionRequest = z.infer<typeof staffCorrectionRequestSchema>;
export const staffRefundRequestSchema = z.object({
  amount: roublesSchema.refine((amount) => amount > 0, 'Сумма должна быть больше нуля').optional(),
  reason: staffReasonSchema,
  idempotencyKey: z.string().min(8).max(100),
});
export type StaffRefundRequest = z.infer<typeof staffRefundRequestSchema>;
export const staffMoneyAnswerSchema = z.object({
  status: z.enum(['done', 'pending']),
  message: z.string(),
  /** pending: the request another member approves. */
  requestId: z.string().optional(),
});
export type StaffMoneyAnswer = z.infer<typeof staffMoneyAnswerSchema>;

/** `POST …/payments/:id/reconcile` `{ reason }`: asks the bank and applies its answer. */
export const staffReconcileAnswerSchema = z.object({ message: z.string(), status: z.string() });

/**
 * `GET …/money-requests?status=pending|all` (all: the latest 100); `POST
 * …/money-requests/:id/approve|decline` `{ reason }`. `amount` in roubles or points, as the
 * account page's.
 */
export const moneyRequestStatusSchema = z.enum(['pending', 'approved', 'declined', 'expired']);
export const moneyRequestSchema = z.object({
  id: z.string(),
  kind: z.enum(['credit', 'debit', 'refund']),
  accountId: z.string(),
  accountEmail: z.string(),
  paymentId: z.string().nullable(),
  currency: z.enum(['rub', 'points']),
  amount: z.number(),
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: timestampSchema,
  expiresAt: timestampSchema,
  status: moneyRequestStatusSchema,
  decidedBy: z.string().nullable(),
  decidedAt: timestampSchema.nullable(),
  /** The requesting member's account; null: made by the command line (known by its name only). */
  requestedByUserId: z.string().nullable(),
});
export type MoneyRequest = z.infer<typeof moneyRequestSchema>;
export const moneyRequestsAnswerSchema = z.object({ items: z.array(moneyRequestSchema) });

// ---------------------------------------------------------------- roles (admin)

/** `GET …/roles`: the staff now. */
export const staffMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  username: z.string(),
  role: staffRoleSchema,
  grantedBy: z.string(),
  grantedAt: timestampSchema,
});
export const staffMembersAnswerSchema = z.object({ items: z.array(staffMemberSchema) });
/** `POST …/roles` grants (or changes) a role; `POST …/roles/:userId/revoke` `{ reason }` takes it back. */
export const staffGrantRequestSchema = z.object({
  email: emailSchema,
  role: staffRoleSchema,
  reason: staffReasonSchema,
});
export type StaffGrantRequest = z.infer<typeof staffGrantRequestSchema>;

// ---------------------------------------------------------------- the audit (admin)

/**
 * `GET …/audit?actor=&account=&kind=&from=&to=&before=`: newest first, STAFF_PAGE_SIZE a page
 * (`before` is the last row's `seq`); `GET …/audit.csv` with the same filters, every row.
 */
export const staffAuditQuerySchema = z.object({
  actor: z.string().optional(),
  account: z.string().optional(),
  kind: z.string().optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  before: z.coerce.number().int().optional(),
});
export type StaffAuditQuery = z.infer<typeof staffAuditQuerySchema>;
export const staffAuditRowSchema = z.object({
  seq: z.number(),
  at: timestampSchema,
  /** The member's username, or the command line's `--operator` name. */
  actor: z.string(),
  /** null: the command line. */
  role: staffRoleSchema.nullable(),
  /** What was done: `account_opened`, `receipts_opened`, `unlock`, `block`, `correction`, `refund`, `role_granted`… */
  kind: z.string(),
  accountId: z.string().nullable(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type StaffAuditRow = z.infer<typeof staffAuditRowSchema>;
export const staffAuditAnswerSchema = z.object({
  items: z.array(staffAuditRowSchema),
  hasMore: z.boolean(),
});
export type StaffAuditAnswer = z.infer<typeof staffAuditAnswerSchema>;
