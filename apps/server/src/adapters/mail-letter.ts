/**
 * Branded letters in Russian, HTML and plain text from one description.
 *
 *   const letter = composeLetter(config, {
 *     to: 'ivan@example.com',
 *     subject: 'Код подтверждения',
 *     greeting: 'Здравствуйте, Иван!',
 *     paragraphs: ['Ваш код подтверждения регистрации:'],
 *     code: '123456',                       // optional: shown large, alone on its line
 *     expiresAt: issued.expiresAt,          // with a code: the letter is not sent after this
 *     afterCode: ['Код действует 10 минут.'],
 *     action: { label: 'Войти', url: 'https://…' },   // optional button/link
 *     footer: 'Если вы не запрашивали код, просто проигнорируйте это письмо.',
 *   });
 *   await app.deps.mail.enqueue(letter, tx);
 *
 * Every value is escaped; nothing the caller passes becomes markup.
 */
import { ONE_TIME_CODE_TTL_MINUTES } from '@portal/contracts/constants';
import type { Config } from '../config.js';

interface LetterText {
  to: string;
  subject: string;
  greeting?: string;
  paragraphs: string[];
  afterCode?: string[];
  action?: { label: string; url: string };
  footer?: string;
}

/** What a module's letters take of the configuration: the brand, and the address for links. */
export type LetterConfig = Pick<Config, 'BRAND_NAME' | 'PUBLIC_URL'>;

/** One letter as the outbox (mail.ts) keeps and sends it. */
export interface Letter {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Not sent after this moment (a one-time code's expiry); without it, sent until given up. */
  expiresAt?: Date;
}

/**
 * A letter that carries a one-time code must say when the code expires: a code that arrives
 * after that is useless, so the outbox does not send it (mail.ts).
 */
export type LetterContent = LetterText &
  ({ code?: undefined; expiresAt?: undefined } | { code: string; expiresAt: Date });

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export function composeLetter(config: Pick<Config, 'BRAND_NAME'>, content: LetterContent): Letter {
  const brand = config.BRAND_NAME;
  const subject = `${brand}: ${content.subject}`;
  const after = content.afterCode ?? [];

  const text = [
    content.greeting,
    ...content.paragraphs,
    content.code,
    ...after,
    content.action ? `${content.action.label}: ${content.action.url}` : undefined,
    content.footer,
    `— ${brand}`,
  ]
    .filter((line): line is string => Boolean(line))
    .join('\n\n');

  const p = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const body = [
    content.greeting ? p(content.greeting) : '',
    ...content.paragraphs.map(p),
    content.code
      ? `<p style="margin:0 0 16px;font-size:32px;font-weight:700;letter-spacing:8px;font-family:monospace">${escapeHtml(content.code)}</p>`
      : '',
    ...after.map(p),
    content.action
      ? `<p style="margin:0 0 16px"><a href="${escapeHtml(content.action.url)}" style="color:#4f46e5">${escapeHtml(content.action.label)}</a></p>`
      : '',
    content.footer
      ? `<p style="margin:24px 0 0;color:#6b7280;font-size:13px">${escapeHtml(content.footer)}</p>`
      : '',
  ].join('');

  const html = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,sans-serif;color:#111827"><div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px"><p style="margin:0 0 24px;font-size:20px;font-weight:700">${escapeHtml(brand)}</p>${body}</div></body></html>`;

  return content.expiresAt
    ? { to: content.to, subject, text, html, expiresAt: content.expiresAt }
    : { to: content.to, subject, text, html };
}

/** «Здравствуйте, Иван!», or «Здравствуйте!» for an account without a first name. */
export function greetingOf(firstName: string): string {
  const name = firstName.trim();
  return name ? `Здравствуйте, ${name}!` : 'Здравствуйте!';
}

/** Whom a one-time code goes to, and the code. */
export interface CodeLetterInput {
  to: string;
  firstName: string;
  code: string;
  expiresAt: Date;
}

/**
 * A letter that carries a one-time code: the greeting by first name, the letter's own text, the
 * code and how long it is valid, then the letter's own footer.
 */
export function codeLetter(
  config: Pick<Config, 'BRAND_NAME'>,
  input: CodeLetterInput,
  text: { subject: string; paragraphs: string[]; footer: string },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: text.subject,
    greeting: greetingOf(input.firstName),
    paragraphs: text.paragraphs,
    code: input.code,
    expiresAt: input.expiresAt,
    afterCode: [`Код действует ${ONE_TIME_CODE_TTL_MINUTES} минут.`],
    footer: text.footer,
  });
}

/** 'ivan.petrov@example.com' → 'iv***@example.com': enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 2)}***@${domain}`;
}
