import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { STAFF_APPROVAL_ROUBLES_DEFAULT } from '@portal/contracts/staff';
import { z } from 'zod';
import { RECEIPT_TAXATIONS, RECEIPT_VATS } from './adapters/tbank/receipt-codes.js';
import { DEFAULT_WEB_DIST_DIR } from './paths.js';

/** The brand's sibling sites; each lives at the origin of its URL setting (HOSTING_URL, …). */
export const SIBLING_NAMES = ['hosting', 'launcher'] as const;
export type SiblingName = (typeof SIBLING_NAMES)[number];

const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

const optionalUrl = z.preprocess((value) => (value === '' ? undefined : value), z.url().optional());

/** Grants a client of the portal's OpenID provider may be given (modules/oidc). */
export const OIDC_GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;

const urlList = z.array(z.url({ error: 'ожидается адрес (URL)' }), {
  error: 'ожидается список адресов',
});

/** One client of `OIDC_CLIENTS`: standard client metadata (RFC 7591), the fields the portal uses. */
const oidcClientSchema = z
  .strictObject(
    {
      client_id: z.string({ error: 'нужен client_id' }).regex(/^[\w.-]{1,64}$/, {
        error: 'client_id: латиница, цифры, «.», «_», «-», до 64 символов',
      }),
      client_secret: z.string().min(32, { error: 'нужно не меньше 32 символов' }).optional(),
      client_name: z.string().optional(),
      application_type: z.enum(['web', 'native']).default('web'),
      redirect_uris: urlList.default([]),
      post_logout_redirect_uris: urlList.default([]),
      grant_types: z
        .array(
          z.enum(OIDC_GRANT_TYPES, { error: `ожидается одно из: ${OIDC_GRANT_TYPES.join(', ')}` }),
        )
        .default(['authorization_code']),
      token_endpoint_auth_method: z
        .enum(['client_secret_basic', 'client_secret_post', 'none'])
        .default('client_secret_basic'),
      backchannel_logout_uri: z.url().optional(),
      /** The logout token names the site's session (`sid`), which its ID tokens carry too. */
      backchannel_logout_session_required: z.boolean().optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `неизвестное поле ${issue.keys.map((key) => `«${key}»`).join(', ')}`
          : undefined,
    },
  )
  .superRefine((client, context) => {
    const isPublic = client.token_endpoint_auth_method === 'none';
    if (!isPublic && !client.client_secret) {
      context.addIssue({
        code: 'custom',
        path: ['client_secret'],
        message: 'нужен секрет, или token_endpoint_auth_method: none для приложения без секрета',
      });
    }
    if (isPublic && client.client_secret) {
      context.addIssue({
        code: 'custom',
        path: ['client_secret'],
        message: 'у клиента с token_endpoint_auth_method: none секрета нет',
      });
    }
    if (client.grant_types.includes('authorization_code') && client.redirect_uris.length === 0) {
      context.addIssue({
        code: 'custom',
        path: ['redirect_uris'],
        message: 'нужен хотя бы один адрес возврата для authorization_code',
      });
    }
  });

export type OidcClientSetting = z.infer<typeof oidcClientSchema>;

/** `OIDC_CLIENTS`: a JSON array of clients; every mistake is its own line, named by its place. */
const oidcClients = z
  .string()
  .default('[]')
  .transform((value, context) => {
    try {
      return JSON.parse(value || '[]') as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'ожидается JSON-массив клиентов' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(oidcClientSchema, { error: 'ожидается JSON-массив клиентов' })
      .superRefine((clients, context) => {
        const seen = new Set<string>();
        clients.forEach((client, index) => {
          if (seen.has(client.client_id)) {
            context.addIssue({
              code: 'custom',
              path: [index, 'client_id'],
              message: `client_id «${client.client_id}» уже есть выше`,
            });
          }
          seen.add(client.client_id);
        });
      }),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce
    .number({ error: 'ожидается номер порта от 0 до 65535' })
    .int({ error: 'ожидается номер порта от 0 до 65535' })
    .min(0, { error: 'ожидается номер порта от 0 до 65535' })
    .max(65535, { error: 'ожидается номер порта от 0 до 65535' })
    .default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `errors`: request lines only for 5xx and slow answers (http/logging.ts); `all`: one a request. */
  ACCESS_LOG: z.enum(['errors', 'all']).default('errors'),
  ACCESS_LOG_SLOW_MS: z.coerce.number().int().min(0).default(1000),
  /** Address the portal is reached at from a browser; used in letters and provider callbacks. */
  PUBLIC_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().default('./data'),
  REDIS_URL: optionalUrl,
  /** Signs one-time codes and encrypts authenticator secrets. Generated into DATA_DIR when unset. */
  SECRET_KEY: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().min(32, 'SECRET_KEY: нужно не меньше 32 символов').optional(),
  ),
  TRUSTED_PROXIES: list,
  SSO_ALLOWED_ORIGINS: list,
  BRAND_NAME: z.string().default('GameHost'),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('GameHost <no-reply@localhost>'),
  /** Pause before a failed letter is tried again; each further pause doubles, up to an hour. */
  MAIL_FIRST_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  WEB_DIST_DIR: z.string().default(''),
  UPLOAD_DIR: z.string().default(''),
  /** S3-compatible storage for uploads; all of S3_* but S3_REGION/S3_PREFIX together. */
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Where browsers read the bucket's objects (a CDN or the bucket's public address). */
  S3_PUBLIC_URL: optionalUrl,
  S3_PREFIX: z.string().default('avatars/'),
  SUPPORT_URL: z.url().default('https://t.me/gamehost_support'),
  HOSTING_URL: z.url().default('https://hosting.example.com'),
  LAUNCHER_URL: z.url().default('https://launcher.example.com'),
  PRIVACY_URL: z.url().default('https://hosting.example.com/privacy'),
  API_BASE_URL: z.string().default(''),
  MS_API_BASE_URL: z.string().default(''),
  TBANK_TERMINAL_KEY: z.string().optional(),
  TBANK_PASSWORD: z.string().optional(),
  TBANK_API_URL: z.url().default('https://securepay.tinkoff.ru'),
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  TELEGRAM_BOT_USERNAME: z.string().default('gamehost_bot'),
  TELEGRAM_API_ROOT: z.url().default('https://api.telegram.org'),
  TELEGRAM_MODE: z.enum(['polling', 'webhook']).default('polling'),
  TELEGRAM_WEBHOOK_SECRET: z.string().optional(),
  YANDEX_CLIENT_ID: z.string().optional(),
  YANDEX_AUTHORIZE_URL: z.url().default('https://oauth.yandex.ru/authorize'),
  YANDEX_USERINFO_URL: z.url().default('https://login.yandex.ru/info'),
  /**
   * `auto`: T-Bank with a terminal key, else the sandbox on a local PUBLIC_URL, else top-ups are
   * off (modules/payments/provider.ts). `sandbox` turns the sandbox on anywhere (a staging).
   */
  PAYMENT_PROVIDER: z.enum(['auto', 'tbank', 'sandbox']).default('auto'),
  TBANK_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),
  TOP_UP_MIN_ROUBLES: z.coerce.number().int().min(1).default(10),
  TOP_UP_MAX_ROUBLES: z.coerce.number().int().min(1).default(100_000),
  /**
   * A staff refund or correction above this many roubles (points count 1:1) is a request another
   * finance member approves (modules/operator/money-service.ts); 0: every one is.
   */
  STAFF_APPROVAL_ROUBLES: z.coerce
    .number({ error: 'ожидается целое число рублей, 0 или больше' })
    .int({ error: 'ожидается целое число рублей, 0 или больше' })
    .min(0, { error: 'ожидается целое число рублей, 0 или больше' })
    .default(STAFF_APPROVAL_ROUBLES_DEFAULT),
  /**
   * The fiscal receipt (54-FZ) sent with every Init and refund Cancel (modules/payments/receipt.ts,
   * docs/decisions/0032-receipts.md). A wallet top-up is an advance for services not yet chosen:
   * PaymentMethod `advance` (признак способа расчёта «аванс») and PaymentObject `payment`
   * («платёж»), as 54-FZ asks for money taken before the subject of the sale is known.
   */
  RECEIPT_TAXATION: z.enum(RECEIPT_TAXATIONS).default('usn_income'),
  RECEIPT_VAT: z.enum(RECEIPT_VATS).default('none'),
  RECEIPT_PAYMENT_METHOD: z
    .enum(['full_prepayment', 'prepayment', 'advance', 'full_payment'])
    .default('advance'),
  RECEIPT_PAYMENT_OBJECT: z.enum(['payment', 'service', 'another']).default('payment'),
  /** `1.2` adds FfdVersion and the item's MeasurementUnit; the terminal's register must support it. */
  RECEIPT_FFD_VERSION: z.enum(['1.05', '1.2']).default('1.05'),
  /** The tax service's page where anyone checks a receipt by its numbers (the receipt page links it). */
  RECEIPT_CHECK_URL: z.url().default('https://kkt-online.nalog.ru/'),
  /** Seconds between reconciliation runs (GetState for pending payments); 0 turns it off. */
  PAYMENT_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(300),
  /** Seconds between auto-renewal runs; 0 turns it off. */
  SERVICE_RENEWAL_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(3600),
  /**
   * `name:key,name:key`: API keys of sibling sites for the server-to-server API. The name says
   * which site holds the key, and so at which origin (its URL setting) its hand-offs arrive.
   */
  SIBLING_API_KEYS: list.pipe(
    z.array(
      z
        .string()
        .regex(
          new RegExp(`^(${SIBLING_NAMES.join('|')}):.{24,}$`),
          `ожидается имя:ключ, где имя — ${SIBLING_NAMES.join(' или ')}, ключ от 24 символов`,
        ),
    ),
  ),
  /** JSON array of catalogue items ({ imgUrl, title, description, link, status }); empty = default. */
  SERVICE_CATALOGUE: z.string().default(''),
  /** Live sessions one process remembers (modules/auth/sessions.ts); 0 = every check reads the database. */
  SESSION_CACHE_SIZE: z.coerce.number().int().min(0).default(50_000),
  /** Accounts whose frequent reads one process remembers (db/user-reads.ts); 0 = none. */
  ACCOUNT_CACHE_ACCOUNTS: z.coerce.number().int().min(0).default(5_000),
  /** Megabytes of remembered answers (their JSON) per process; memory taken is about three times. */
  ACCOUNT_CACHE_MB: z.coerce.number().int().min(1).default(32),
  /** The clients of the portal's OpenID provider (modules/oidc), checked at start. */
  OIDC_CLIENTS: oidcClients,
  /**
   * Where the support desk answers (modules/staff): set, the staff's calls answer only at this
   * address's host (404 elsewhere); unset, at the portal's own.
   */
  STAFF_URL: optionalUrl,
  /** Lets a scraper off this machine read GET /metrics with `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().min(24, 'METRICS_TOKEN: нужно не меньше 24 символов').optional(),
  ),
});

type Env = z.infer<typeof envSchema>;

export type Config = Env & {
  PUBLIC_URL: string;
  SECRET_KEY: string;
  WEB_DIST_DIR: string;
  UPLOAD_DIR: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Неверная конфигурация: ${problems.join('; ')}`);
  }
}

/** Reads and validates the environment once; everything else receives the typed result. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        // OIDC_CLIENTS holds the clients' secrets: its lines name the place, never the value.
        const received = name && issue.path[0] !== 'OIDC_CLIENTS' ? env[name] : undefined;
        return `${name || 'env'}: ${issue.message}${received === undefined ? '' : ` (сейчас «${received}»)`}`;
      }),
    );
  }
  const values = parsed.data;
  const problems = [...missingS3Settings(values), ...missingTbankSettings(values)];
  if (problems.length > 0) throw new ConfigError(problems);
  const keyedSites = new Set(values.SIBLING_API_KEYS.map((item) => item.split(':')[0]));
  const isOneOrigin = new URL(values.HOSTING_URL).origin === new URL(values.LAUNCHER_URL).origin;
  if (keyedSites.size > 1 && isOneOrigin) {
    // A session handed to a sibling is told apart by its origin alone.
    throw new ConfigError([
      'HOSTING_URL, LAUNCHER_URL: у сайтов с ключами API должны быть разные origin',
    ]);
  }
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    ...values,
    DATA_DIR: dataDir,
    PUBLIC_URL: values.PUBLIC_URL ?? `http://localhost:${values.PORT}`,
    SECRET_KEY: values.SECRET_KEY ?? readOrCreateSecret(dataDir),
    WEB_DIST_DIR: values.WEB_DIST_DIR || DEFAULT_WEB_DIST_DIR,
    UPLOAD_DIR: values.UPLOAD_DIR || path.join(dataDir, 'uploads'),
    // The brand's own sites are the natural siblings; an explicit list replaces them.
    SSO_ALLOWED_ORIGINS:
      values.SSO_ALLOWED_ORIGINS.length > 0
        ? values.SSO_ALLOWED_ORIGINS
        : [new URL(values.HOSTING_URL).origin, new URL(values.LAUNCHER_URL).origin],
  };
}

/** S3 storage for uploads needs all of its settings at once. */
function missingS3Settings(env: Env): string[] {
  if (!env.S3_ENDPOINT) return [];
  const required = [
    'S3_BUCKET',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_PUBLIC_URL',
  ] as const;
  return required.filter((name) => !env[name]).map((name) => `${name}: нужен вместе с S3_ENDPOINT`);
}

/** A T-Bank terminal, asked for by name or by its key, needs both its key and its password. */
export function missingTbankSettings(
  env: Pick<Env, 'PAYMENT_PROVIDER' | 'TBANK_TERMINAL_KEY' | 'TBANK_PASSWORD'>,
): string[] {
  const wantsTbank =
    env.PAYMENT_PROVIDER === 'tbank' ||
    (env.PAYMENT_PROVIDER === 'auto' && Boolean(env.TBANK_TERMINAL_KEY));
  if (!wantsTbank) return [];
  const problems: string[] = [];
  if (!env.TBANK_TERMINAL_KEY)
    problems.push('TBANK_TERMINAL_KEY: нужен для PAYMENT_PROVIDER=tbank');
  if (!env.TBANK_PASSWORD) problems.push('TBANK_PASSWORD: нужен вместе с TBANK_TERMINAL_KEY');
  return problems;
}

/** A fresh machine has no secret; keep one beside the embedded database so restarts keep codes valid. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Config for tests: no environment is read, nothing is written. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...envSchema.parse({}),
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://portal.test',
    SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
    WEB_DIST_DIR: DEFAULT_WEB_DIST_DIR,
    UPLOAD_DIR: '',
    SSO_ALLOWED_ORIGINS: ['https://hosting.example.com', 'https://launcher.example.com'],
    // portal.test is not a local address: tests ask for the sandbox by name, as a staging would.
    PAYMENT_PROVIDER: 'sandbox',
    ...overrides,
  };
}
