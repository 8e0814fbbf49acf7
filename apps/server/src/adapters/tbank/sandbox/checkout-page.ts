import type { SandboxPaymentRow } from './schema.js';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

const money = new Intl.NumberFormat('ru-RU', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #0f1115; color: #e8eaed; margin: 0;
         display: grid; place-items: center; min-height: 100vh; }
  main { background: #1a1d23; border-radius: 16px; padding: 32px; width: min(420px, 90vw);
         box-sizing: border-box;
         box-shadow: 0 8px 32px rgba(0,0,0,.4); }
  h1 { font-size: 20px; margin: 0 0 4px; }
  .note { color: #9aa0a6; font-size: 13px; margin: 0 0 24px; }
  .amount { font-size: 32px; font-weight: 700; margin: 8px 0 4px; }
  .row { display: flex; gap: 12px; margin-top: 24px; }
  button { flex: 1; font-size: 16px; padding: 12px; border-radius: 10px; border: 0; cursor: pointer; }
  .pay { background: #ffdd2d; color: #111; font-weight: 600; }
  .cancel { background: #2b2f36; color: #e8eaed; }
  a { color: #8ab4f8; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** The checkout page: plain HTML and one form, no scripts (the CSP forbids inline ones). */
export function renderCheckoutPage(
  payment: SandboxPaymentRow,
  options: { formToken: string; isSbp: boolean },
): string {
  const amount = `${money.format(payment.amountKopecks / 100)} ₽`;
  const method = options.isSbp ? 'Оплата через СБП' : 'Оплата банковской картой';
  return layout(
    'Тестовая оплата',
    `<h1>Тестовая оплата</h1>
<p class="note">Песочница платёжного сервиса: настоящие деньги не списываются.</p>
<div>${escapeHtml(method)}</div>
<div class="amount" data-testid="sandbox-amount">${escapeHtml(amount)}</div>
<div>${escapeHtml(payment.description)}</div>
<div class="note">Заказ ${escapeHtml(payment.orderId)}</div>
<form method="post" action="/sandbox/tbank/pay/${payment.id}">
  <input type="hidden" name="token" value="${escapeHtml(options.formToken)}">
  <div class="row">
    <button class="pay" type="submit" name="action" value="pay">Оплатить</button>
    <button class="cancel" type="submit" name="action" value="cancel">Отменить</button>
  </div>
</form>`,
  );
}

const FINAL_TEXT: Record<string, string> = {
  CONFIRMED: 'Платёж уже оплачен.',
  CANCELED: 'Платёж отменён.',
  REFUNDED: 'Платёж возвращён.',
  PARTIAL_REFUNDED: 'Платёж частично возвращён.',
};

/** A payment that is no longer waiting: say so and offer the way back. */
export function renderFinishedPage(payment: SandboxPaymentRow): string {
  const back = payment.status === 'CONFIRMED' ? payment.successUrl : payment.failUrl;
  return layout(
    'Тестовая оплата',
    `<h1>Тестовая оплата</h1>
<p>${escapeHtml(FINAL_TEXT[payment.status] ?? 'Платёж завершён.')}</p>
${back ? `<p><a href="${escapeHtml(back)}">Вернуться в личный кабинет</a></p>` : ''}`,
  );
}

export function renderNotFoundPage(): string {
  return layout('Тестовая оплата', '<h1>Платёж не найден</h1>');
}
