import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../../../server/test/support/smtp-server';
import { postJson, startSiblingSite } from './auth-helpers';
import type { BrowserSession, NewPageOptions } from './browser';
import { newSignedInAccount, openSignedInPage, type SignedInAccount } from './fixtures';
import { type Portal, startPortal } from './portal';

/** The hosting site's key for the server-to-server API (SIBLING_API_KEYS wants 24+ characters). */
const SIBLING_API_KEY = 'e2e-hosting-key-0123456789abcdef';

export type WalletWorld = {
  portal: Portal;
  smtp: TestSmtpServer;
  /** A local stand-in for the hosting site: the hosting link and the allow-listed hand-off origin. */
  siblingOrigin: string;
};

/**
 * One portal for the test file with everything the wallet needs: a real SMTP server for the
 * registration letters, the payment sandbox (the default without a terminal key), a sibling
 * site on the hand-off allow-list, and an API key for the sibling API. `env` may depend on the
 * sibling site's origin, which is known only once it runs.
 */
export function setupWalletWorld(
  env: Record<string, string> | ((siblingOrigin: string) => Record<string, string>) = {},
): () => WalletWorld {
  let world: WalletWorld | undefined;
  let sibling: Awaited<ReturnType<typeof startSiblingSite>> | undefined;
  beforeAll(async () => {
    const smtp = await startSmtpServer({ closeAfterAll: false });
    sibling = await startSiblingSite();
    const portal = await startPortal({
      SMTP_URL: smtp.url,
      SSO_ALLOWED_ORIGINS: sibling.origin,
      HOSTING_URL: `${sibling.origin}/`,
      SIBLING_API_KEYS: `hosting:${SIBLING_API_KEY}`,
      ...(typeof env === 'function' ? env(sibling.origin) : env),
    });
    world = { portal, smtp, siblingOrigin: sibling.origin };
  });
  afterAll(async () => {
    await world?.portal.stop();
    await sibling?.close();
    await world?.smtp.close();
  });
  return () => {
    if (!world) throw new Error('setupWalletWorld(): not started yet (use it inside a test)');
    return world;
  };
}

export type Customer = SignedInAccount;

/** A confirmed account with a session, made through the API. */
export function newCustomer(world: WalletWorld): Promise<Customer> {
  return newSignedInAccount(world);
}

/** A page that is signed in as `customer` before the app's first script runs. */
export function openAs(browser: BrowserSession, customer: Customer, options: NewPageOptions = {}) {
  return openSignedInPage(browser, customer.token, options);
}

/**
 * Money on the customer's balance the way a real top-up brings it: a card payment, then
 * «Оплатить» on the sandbox checkout (the form posts to the page's own unguessable address).
 */
export async function topUpThroughSandbox(world: WalletWorld, customer: Customer, roubles: number) {
  const answer = (await postJson(
    `${world.portal.baseUrl}/paymentms/api/Payment/create`,
    { amount: roubles },
    customer.token,
  )) as { data: { paymentUrl: string } };
  const checkout = await fetch(answer.data.paymentUrl);
  const html = await checkout.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No checkout form in:\n${html}`);
  const paid = await fetch(new URL(action, answer.data.paymentUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'pay' }),
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`The sandbox answered ${paid.status} to «Оплатить»`);
}

export type SiblingOrder = {
  orderId: string;
  service: {
    externalId: string;
    name: string;
    serverCount: number;
    pricePerMonth?: number;
    autoRenew?: boolean;
    manageUrl?: string | null;
  };
  months?: number;
  usePoints?: boolean;
};

/** Customers who have already come to the hosting site from the portal. */
const handedToHosting = new WeakSet<Customer>();

/**
 * The customer goes to the hosting site from the portal: the portal mints a hand-off code, the
 * site redeems it with its key. Only then may the site sell them anything.
 */
async function handOffToHosting(world: WalletWorld, customer: Customer) {
  if (handedToHosting.has(customer)) return;
  const { url } = (await postJson(
    `${world.portal.baseUrl}/authms/api/Auth/handoff`,
    { link: `${world.siblingOrigin}/` },
    customer.token,
  )) as { url: string };
  const response = await fetch(`${world.portal.baseUrl}/authms/api/Auth/verify-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': SIBLING_API_KEY },
    body: JSON.stringify({ token: new URL(url).searchParams.get('token') }),
  });
  if (!response.ok) throw new Error(`The hand-off was refused: ${response.status}`);
  handedToHosting.add(customer);
}

/** The hosting site sells the customer a service through the server-to-server API. */
export async function sellService(world: WalletWorld, customer: Customer, order: SiblingOrder) {
  await handOffToHosting(world, customer);
  const response = await fetch(`${world.portal.baseUrl}/serversms/api/Sibling/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': SIBLING_API_KEY },
    body: JSON.stringify({ userId: customer.userId, ...order }),
  });
  const data: unknown = await response.json();
  if (!response.ok)
    throw new Error(`Sibling order answered ${response.status}: ${JSON.stringify(data)}`);
  return data as { balance: number; balanceStars: number; cashbackPoints: number };
}

/** Text of a wallet tile's value ("1 000,00 ₽"), with Intl's no-break spaces made plain. */
export async function tileValue(page: Page, tone: 'balance' | 'cashback' | 'overdraft') {
  const text = await page.getByTestId(`${tone}-value`).textContent();
  return plain(text ?? '');
}

/** Intl writes thousands with a no-break space; tests compare with ordinary spaces. */
export function plain(text: string): string {
  return text.replace(/[\u00a0\u202f]/g, ' ').trim();
}
