import {
  PAYMENT_NOT_FOUND,
  SANDBOX_BACK,
  SANDBOX_BY_CARD,
  SANDBOX_BY_SBP,
  SANDBOX_CANCEL,
  SANDBOX_CANCELED,
  SANDBOX_EXPIRED,
  SANDBOX_FINISHED,
  SANDBOX_HEADING,
  SANDBOX_ORDER,
  SANDBOX_PAID,
  SANDBOX_PARTIALLY_REFUNDED,
  SANDBOX_PAY,
  SANDBOX_PAY_NOTE,
  SANDBOX_REFUNDED,
  SANDBOX_TEST_PAYMENT,
} from '@portal/contracts/messages';
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
  .test { background: #5c1d1d; color: #ffd7d7; border-radius: 8px; padding: 8px 12px;
          font-weight: 600; margin: 8px 0 24px; }
  .amount { font-size: 32px; font-weight: 700; margin: 8px 0 4px; }
  .row { display: flex; gap: 12px; margin-top: 12px; }
  .pay-note { color: #ffd7d7; font-size: 13px; margin: 24px 0 0; }
  button { flex: 1; font-size: 16px; padding: 12px; border-radius: 10px; border: 0; cursor: pointer; }
  .pay { background: #ffdd2d; color: #111; font-weight: 600; }
  .cancel { background: #2b2f36; color: #e8eaed; }
  a { color: #8ab4f8; }
`;

/**
 * Every sandbox page, whatever it shows, says in its title and under its heading that this is a
 * test payment: nobody may take it for a bank's page, and nobody may think money was taken.
 */
function layout(body: string): string {
  return `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(SANDBOX_TEST_PAYMENT)}</title>
<style>${STYLE}</style>
</head>
<body><main>
<h1>${escapeHtml(SANDBOX_HEADING)}</h1>
<p class="test" data-testid="sandbox-test-label">${escapeHtml(SANDBOX_TEST_PAYMENT)}</p>
${body}
</main></body>
</html>`;
}

/** The checkout page: plain HTML and one form, no scripts (the CSP forbids inline ones). */
export function renderCheckoutPage(
  payment: SandboxPaymentRow,
  options: { formAction: string; isSbp: boolean },
): string {
  const amount = `${money.format(payment.amountKopecks / 100)} ₽`;
  const method = options.isSbp ? SANDBOX_BY_SBP : SANDBOX_BY_CARD;
  return layout(
    `<div>${escapeHtml(method)}</div>
<div class="amount" data-testid="sandbox-amount">${escapeHtml(amount)}</div>
<div>${escapeHtml(payment.description)}</div>
<div class="note">${escapeHtml(`${SANDBOX_ORDER} ${payment.orderId}`)}</div>
<form method="post" action="${escapeHtml(options.formAction)}">
  <p class="pay-note" id="pay-note">${escapeHtml(SANDBOX_PAY_NOTE)}</p>
  <div class="row">
    <button class="pay" type="submit" name="action" value="pay" aria-describedby="pay-note">${escapeHtml(SANDBOX_PAY)}</button>
    <button class="cancel" type="submit" name="action" value="cancel">${escapeHtml(SANDBOX_CANCEL)}</button>
  </div>
</form>`,
  );
}

const FINAL_TEXT: Record<string, string> = {
  CONFIRMED: SANDBOX_PAID,
  CANCELED: SANDBOX_CANCELED,
  DEADLINE_EXPIRED: SANDBOX_EXPIRED,
  REFUNDED: SANDBOX_REFUNDED,
  PARTIAL_REFUNDED: SANDBOX_PARTIALLY_REFUNDED,
};

/** Where a finished payment sends the browser back to: the portal's success or failure address. */
export function returnUrlOf(payment: SandboxPaymentRow): string | null {
  return payment.status === 'CONFIRMED' ? payment.successUrl : payment.failUrl;
}

/** A payment that is no longer waiting: say so and offer the way back. */
export function renderFinishedPage(payment: SandboxPaymentRow): string {
  const back = returnUrlOf(payment);
  return layout(
    `<p>${escapeHtml(FINAL_TEXT[payment.status] ?? SANDBOX_FINISHED)}</p>
${back ? `<p><a href="${escapeHtml(back)}">${escapeHtml(SANDBOX_BACK)}</a></p>` : ''}`,
  );
}

export function renderNotFoundPage(): string {
  return layout(`<p>${escapeHtml(PAYMENT_NOT_FOUND)}</p>`);
}
