/**
 * The provider's own HTML pages (the library renders them, not the web app): the device flow's
 * code input, confirm and success pages, and RP-initiated logout's confirm and done pages.
 * Russian, in the portal's look (both themes by `prefers-color-scheme`, dark first as the web
 * app's default), one column that fits 375 px, nothing loaded from elsewhere. The one style
 * sheet is static, so routes.ts allows it by its hash (PAGE_STYLE_HASH) in the answers' CSP, and
 * no page has a script or an inline handler. Every value put in a page is escaped.
 */
import { createHash } from 'node:crypto';
import type { Client, ErrorOut, KoaContextWithOIDC } from 'oidc-provider';

/**
 * The user code: digits only, typed on any keyboard layout (no switching to Latin letters) and
 * on a phone's number pad; nine of them (about 30 bits) live for the device code's ten minutes.
 * The library takes it with spaces, dashes or none.
 */
export const USER_CODE = { charset: 'digits', mask: '***-***-***' } as const;
/** A code of USER_CODE's shape, as the input's placeholder. */
const USER_CODE_EXAMPLE = '123-456-789';

export const PAGE_TEXTS = {
  deviceTitle: 'Вход на устройстве',
  deviceEnterCode: 'Введите код, который показывает устройство',
  codeLabel: 'Код с экрана устройства',
  continue: 'Продолжить',
  codeWrong: 'Такого кода нет. Проверьте код на экране устройства и введите его ещё раз',
  codeExpired:
    'Срок действия кода истёк. Начните вход на устройстве заново, чтобы получить новый код',
  codeUsed: 'Этот код уже использован. Начните вход на устройстве заново',
  aborted: 'Вход отменён. Устройство не получит доступ к аккаунту',
  failed: 'Не удалось проверить код. Обновите страницу и введите код ещё раз',
  confirmTitle: 'Подтвердите вход',
  confirmAsks: 'просит войти в ваш аккаунт.',
  confirmCheck:
    'Убедитесь, что этот код показан на вашем устройстве. Если вы не начинали вход или коды не совпадают, нажмите «Отмена».',
  confirm: 'Подтвердить',
  cancel: 'Отмена',
  successTitle: 'Готово',
  successText: 'Вход выполнен. Вернитесь к устройству, эту страницу можно закрыть.',
  logoutTitle: 'Выйти из аккаунта?',
  logoutAsks: 'просит завершить вход через аккаунт.',
  logout: 'Выйти',
  stay: 'Остаться',
  loggedOutTitle: 'Вы вышли',
  loggedOutText: 'Выход выполнен, эту страницу можно закрыть.',
} as const;

const STYLE = `
:root{color-scheme:dark;--bg:#0a0c11;--surface:#12151d;--surface-2:#181c27;--border:#242a39;--text:#eef1f7;--muted:#8d95a9;--accent:#7152ff;--accent-hover:#6847f5;--on-accent:#fff;--danger:#f0575a;--ring:0 0 0 3px rgba(124,92,255,.45)}
@media (prefers-color-scheme:light){:root{color-scheme:light;--bg:#f3f5fa;--surface:#fff;--surface-2:#f6f7fb;--border:#e3e6ef;--text:#141823;--muted:#5b6376;--accent:#6846ff;--accent-hover:#5a36f5;--danger:#dc2626;--ring:0 0 0 3px rgba(104,70,255,.3)}}
*,*::before,*::after{box-sizing:border-box}
html,body{margin:0}
body{min-height:100vh;display:flex;align-items:flex-start;justify-content:center;padding:48px 16px;background:var(--bg);color:var(--text);font:15px/1.5 "Segoe UI",system-ui,-apple-system,Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
main{width:100%;max-width:420px;padding:28px 24px;background:var(--surface);border:1px solid var(--border);border-radius:18px}
h1{margin:0 0 12px;font-size:22px;line-height:1.25}
p{margin:0 0 16px;overflow-wrap:anywhere}
.muted{color:var(--muted);font-size:14px}
.error{color:var(--danger);font-weight:600}
.code{display:block;margin:0 0 16px;padding:12px;border-radius:10px;background:var(--surface-2);font:600 26px/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.08em;text-align:center;overflow-wrap:anywhere}
label{display:block;margin:0 0 6px;font-size:13px;font-weight:600;color:var(--muted)}
input[type=text]{width:100%;height:52px;margin:0 0 16px;padding:0 14px;border:1px solid var(--border);border-radius:10px;background:var(--surface-2);color:var(--text);font:600 22px/1 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.08em;text-align:center}
input[type=text]:focus,button:focus-visible{outline:none;box-shadow:var(--ring);border-color:var(--accent)}
.actions{display:flex;flex-direction:column;gap:10px}
button{width:100%;height:44px;padding:0 20px;border:1px solid transparent;border-radius:10px;font:inherit;font-weight:600;cursor:pointer}
.primary{background:var(--accent);color:var(--on-accent)}
.primary:hover{background:var(--accent-hover)}
.secondary{background:transparent;color:var(--text);border-color:var(--border)}
.secondary:hover{background:var(--surface-2)}
`;

/** The CSP source that allows the pages' one style sheet (routes.ts). */
export const PAGE_STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

function page(ctx: KoaContextWithOIDC, title: string, content: string) {
  ctx.type = 'html';
  ctx.body = `<!DOCTYPE html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${content}
</main>
</body>
</html>`;
}

/**
 * The anti-forgery value the library put in the form it hands the hook: the pages write their
 * own forms (the library's input form has an inline `onfocus`, which the CSP forbids) with the
 * same fields.
 */
function xsrfOf(form: string): string {
  const found = /name="xsrf" value="([^"]*)"/.exec(form);
  if (!found) throw new Error('the library gave a form without its xsrf value');
  return found[1]!;
}

/** The site or launcher asking, as its setting names it. */
function clientLabel(client: Client | undefined): string {
  return client ? (client.clientName ?? client.clientId) : '';
}

function userCodeError(err: Error | undefined): string | undefined {
  if (!err) return undefined;
  switch (err.name) {
    case 'NotFoundError':
    case 'NoCodeError':
      return PAGE_TEXTS.codeWrong;
    case 'ExpiredError':
      return PAGE_TEXTS.codeExpired;
    case 'AlreadyUsedError':
      return PAGE_TEXTS.codeUsed;
    case 'AbortedError':
      return PAGE_TEXTS.aborted;
    default:
      return PAGE_TEXTS.failed;
  }
}

/** `features.deviceFlow.userCodeInputSource`: the code typed by hand, or the error on it. */
export function userCodeInputSource(
  ctx: KoaContextWithOIDC,
  form: string,
  _out?: ErrorOut,
  err?: Error,
): void {
  const error = userCodeError(err);
  const typed = (err as { userCode?: string } | undefined)?.userCode;
  const action = ctx.oidc.urlFor('code_verification');
  page(
    ctx,
    PAGE_TEXTS.deviceTitle,
    `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : `<p>${escapeHtml(PAGE_TEXTS.deviceEnterCode)}</p>`}
<form id="op.deviceInputForm" method="post" action="${escapeHtml(action)}">
<input type="hidden" name="xsrf" value="${escapeHtml(xsrfOf(form))}">
<label for="user_code">${escapeHtml(PAGE_TEXTS.codeLabel)}</label>
<input id="user_code" type="text" name="user_code" inputmode="numeric" autocomplete="one-time-code" spellcheck="false" placeholder="${USER_CODE_EXAMPLE}" autofocus required${typed ? ` value="${escapeHtml(typed)}"` : ''}>
<div class="actions"><button class="primary" type="submit">${escapeHtml(PAGE_TEXTS.continue)}</button></div>
</form>`,
  );
}

/** `features.deviceFlow.userCodeConfirmSource`: who asks, the code to compare, confirm or cancel. */
export function userCodeConfirmSource(
  ctx: KoaContextWithOIDC,
  form: string,
  client: Client,
  _deviceInfo: unknown,
  userCode: string,
): void {
  const action = ctx.oidc.urlFor('code_verification');
  const xsrf = escapeHtml(xsrfOf(form));
  page(
    ctx,
    PAGE_TEXTS.confirmTitle,
    `<p><strong>«${escapeHtml(clientLabel(client))}»</strong> ${escapeHtml(PAGE_TEXTS.confirmAsks)}</p>
<span class="code" aria-label="Код">${escapeHtml(userCode)}</span>
<p class="muted">${escapeHtml(PAGE_TEXTS.confirmCheck)}</p>
<form id="op.deviceConfirmForm" method="post" action="${escapeHtml(action)}">
<input type="hidden" name="xsrf" value="${xsrf}">
<input type="hidden" name="user_code" value="${escapeHtml(userCode)}">
<div class="actions">
<button class="primary" type="submit" name="confirm" value="yes" autofocus>${escapeHtml(PAGE_TEXTS.confirm)}</button>
<button class="secondary" type="submit" name="abort" value="yes">${escapeHtml(PAGE_TEXTS.cancel)}</button>
</div>
</form>`,
  );
}

/** `features.deviceFlow.successSource`. */
export function successSource(ctx: KoaContextWithOIDC): void {
  const label = clientLabel(ctx.oidc.client);
  page(
    ctx,
    PAGE_TEXTS.successTitle,
    `${label ? `<p><strong>«${escapeHtml(label)}»</strong></p>` : ''}<p>${escapeHtml(PAGE_TEXTS.successText)}</p>`,
  );
}

/**
 * `features.rpInitiatedLogout.logoutSource`: «Выйти» ends the provider's session and every
 * site's grant in it (`logout=yes`); «Остаться» ends only the asking site's.
 */
export function logoutSource(ctx: KoaContextWithOIDC, form: string): void {
  const label = clientLabel(ctx.oidc.client);
  const action = ctx.oidc.urlFor('end_session_confirm');
  page(
    ctx,
    PAGE_TEXTS.logoutTitle,
    `${label ? `<p><strong>«${escapeHtml(label)}»</strong> ${escapeHtml(PAGE_TEXTS.logoutAsks)}</p>` : ''}
<form id="op.logoutForm" method="post" action="${escapeHtml(action)}">
<input type="hidden" name="xsrf" value="${escapeHtml(xsrfOf(form))}">
<div class="actions">
<button class="primary" type="submit" name="logout" value="yes" autofocus>${escapeHtml(PAGE_TEXTS.logout)}</button>
<button class="secondary" type="submit">${escapeHtml(PAGE_TEXTS.stay)}</button>
</div>
</form>`,
  );
}

/** `features.rpInitiatedLogout.postLogoutSuccessSource`: when the site gave no address to return to. */
export function postLogoutSuccessSource(ctx: KoaContextWithOIDC): void {
  const label = clientLabel(ctx.oidc.client);
  page(
    ctx,
    PAGE_TEXTS.loggedOutTitle,
    `${label ? `<p><strong>«${escapeHtml(label)}»</strong></p>` : ''}<p>${escapeHtml(PAGE_TEXTS.loggedOutText)}</p>`,
  );
}
