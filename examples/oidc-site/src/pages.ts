/** The site's pages: plain HTML, every text in Russian, every value escaped. */
import type { SignedInUser } from './sessions.ts';

const SITE_NAME = 'Сайт-пример';

export function homePage(user: SignedInUser | undefined, notice?: string): string {
  if (!user) {
    return page(
      'Вход',
      `${noticeBlock(notice)}
      <p>Вы не вошли.</p>
      <p><a class="button" href="/login">Войти через аккаунт бренда</a></p>`,
    );
  }
  const username = user.userinfo.preferred_username ?? user.idTokenClaims.preferred_username;
  const email = user.userinfo.email ?? user.idTokenClaims.email;
  const amr = user.idTokenClaims.amr;
  return page(
    'Вы вошли',
    `${noticeBlock(notice)}
    <dl>
      <dt>Имя пользователя</dt><dd data-field="preferred_username">${escapeHtml(username)}</dd>
      <dt>Почта</dt><dd data-field="email">${escapeHtml(email)}</dd>
      <dt>Как подтверждён вход (amr)</dt><dd data-field="amr">${escapeHtml(Array.isArray(amr) ? amr.join(', ') : amr)}</dd>
      <dt>Токен доступа действует до</dt><dd>${escapeHtml(expiry(user.accessTokenExpiresAt))}</dd>
    </dl>
    <form method="post" action="/refresh"><button type="submit">Обновить токены</button></form>
    <form method="post" action="/logout"><button type="submit">Выйти</button></form>
    <h2>Утверждения ID-токена</h2>
    <pre>${escapeHtml(JSON.stringify(user.idTokenClaims, null, 2))}</pre>
    <h2>Ответ userinfo</h2>
    <pre>${escapeHtml(JSON.stringify(user.userinfo, null, 2))}</pre>`,
  );
}

export function errorPage(message: string): string {
  return page(
    'Ошибка',
    `<p role="alert">${escapeHtml(message)}</p><p><a href="/">На главную</a></p>`,
  );
}

function noticeBlock(notice: string | undefined): string {
  return notice ? `<p role="status">${escapeHtml(notice)}</p>` : '';
}

function expiry(at: number | undefined): string {
  return at === undefined ? 'не сказано' : new Date(at).toLocaleString('ru-RU');
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ru">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" href="data:,">
  <title>${escapeHtml(title)} — ${SITE_NAME}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
    .button, button { display: inline-block; padding: .5rem 1rem; border-radius: .5rem; border: 1px solid #2563eb;
      background: #2563eb; color: #fff; text-decoration: none; font: inherit; cursor: pointer; }
    form { display: inline-block; margin: 0 .5rem 1rem 0; }
    dt { font-weight: 600; } dd { margin: 0 0 .5rem; }
    pre { background: #f3f4f6; padding: 1rem; overflow: auto; }
  </style>
</head>
<body>
  <h1>${SITE_NAME}</h1>
  ${body}
</body>
</html>`;
}

function escapeHtml(value: unknown): string {
  return String(value ?? '—').replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
