/**
 * The dev mailbox: without SMTP_URL, letters stay in the outbox and are read
 * here, so that registration works on a fresh machine. With SMTP configured these pages do not
 * exist (404). In production they answer only requests from this machine (loopback): the
 * mailbox holds everyone's codes.
 *
 *   GET /dev/mail            HTML, newest first (?to=<address> filters); no scripts (CSP)
 *   GET /dev/mail/letters    the same as JSON: [{ id, to, subject, text, code, createdAt }]
 */
import { errorAnswerSchema } from '@portal/contracts/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { escapeHtml } from '../../adapters/mail-letter.js';
import { notFound } from '../../http/app-error.js';
import { newestLetters } from './outbox-reads.js';

const LIST_LIMIT = 50;
const CODE_PATTERN = /\b\d{6}\b/;

const querySchema = z.object({ to: z.string().trim().max(320).optional() });
const letterSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  /** The first six-digit number of the letter, when there is one. */
  code: z.string().nullable(),
  createdAt: z.string(),
});

function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

export const devMailRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, db, mail } = app.deps;

  if (!mail.isDevMailbox) {
    // An explicit 404, so that not even the web app's HTML fallback answers here.
    const gone = async () => {
      throw notFound();
    };
    app.get('/dev/mail', { schema: { hide: true } }, gone);
    app.get('/dev/mail/*', { schema: { hide: true } }, gone);
    return;
  }

  const guard = async (request: FastifyRequest) => {
    if (config.NODE_ENV === 'production' && !isLoopback(request.ip)) throw notFound();
  };

  const letters = async (to: string | undefined) => {
    const rows = await newestLetters(db, to, LIST_LIMIT);
    return rows.map((row) => ({
      id: row.id,
      to: row.toAddress,
      subject: row.subject,
      text: row.textBody,
      code: CODE_PATTERN.exec(row.textBody)?.[0] ?? null,
      createdAt: row.createdAt.toISOString(),
    }));
  };

  app.get(
    '/dev/mail/letters',
    {
      preHandler: guard,
      schema: {
        tags: ['dev'],
        summary: 'Почтовый ящик разработчика (без SMTP): письма, новые сначала',
        querystring: querySchema,
        response: { 200: z.array(letterSchema), 404: errorAnswerSchema },
      },
    },
    async (request) => letters(request.query.to),
  );

  app.get(
    '/dev/mail',
    {
      preHandler: guard,
      schema: {
        tags: ['dev'],
        summary: 'Почтовый ящик разработчика (без SMTP), HTML',
        querystring: querySchema,
        produces: ['text/html'],
        // 200 is the HTML page itself; a string payload of a non-JSON type is sent as it is.
        response: { 200: z.string(), 404: errorAnswerSchema },
      },
    },
    async (request, reply) => {
      const list = await letters(request.query.to);
      const html = renderMailbox(config.BRAND_NAME, list);
      return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
    },
  );
};

function renderMailbox(brand: string, list: Array<z.infer<typeof letterSchema>>): string {
  const items = list
    .map((letter) => {
      const body = escapeHtml(letter.text).replace(
        /\b(\d{6})\b/g,
        '<strong class="code">$1</strong>',
      );
      return `<article>
  <header><span class="to">${escapeHtml(letter.to)}</span><time datetime="${letter.createdAt}">${escapeHtml(formatTime(letter.createdAt))}</time></header>
  <h2>${escapeHtml(letter.subject)}</h2>
  ${letter.code ? `<p class="code-line">Код: <strong class="code">${letter.code}</strong></p>` : ''}
  <pre>${body}</pre>
</article>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="10">
<title>Почта разработчика — ${escapeHtml(brand)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 24px; background: #111827; color: #e5e7eb; }
  main { max-width: 760px; margin: 0 auto; }
  h1 { font-size: 22px; } p.note { color: #9ca3af; }
  article { background: #1f2937; border-radius: 10px; padding: 16px 20px; margin: 16px 0; }
  header { display: flex; justify-content: space-between; gap: 12px; color: #9ca3af; font-size: 14px; }
  h2 { font-size: 17px; margin: 8px 0; }
  pre { white-space: pre-wrap; font-family: inherit; margin: 0; }
  .code { font-family: monospace; font-size: 26px; letter-spacing: 6px; color: #fbbf24; }
  .code-line { margin: 8px 0 12px; }
</style>
</head>
<body>
<main>
<h1>Почта разработчика</h1>
<p class="note">SMTP не настроен (SMTP_URL), поэтому письма ${escapeHtml(brand)} не отправляются, а хранятся здесь. Новые сверху, страница обновляется каждые 10 секунд.</p>
${items || '<p>Писем пока нет.</p>'}
</main>
</body>
</html>`;
}

function formatTime(iso: string): string {
  return new Date(iso).toLocaleString('ru-RU', { timeZone: 'Europe/Moscow' });
}
