import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../test/support/fixtures.js';
import { pngImage } from '../../test/support/images.js';
import { multipartBody } from '../../test/support/multipart-body.js';
import type { TestApp } from '../../test/support/test-app.js';
import { activeProvider, createWalletTestApp, requestTopUp } from '../../test/support/wallet.js';
import { signTbankRequest } from '../adapters/tbank/token.js';

// The OpenAPI document (`/docs/json`) against the routes as registered and as they answer: every
// route is there, every request body with its real content type, and every answer a route gives
// is documented with its content type (a redirect without a body).

type Operation = {
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, unknown>; headers?: object }>;
};
type Document = { paths: Record<string, Record<string, Operation>> };
type Answer = {
  method: string;
  route: string;
  status: number;
  contentType: string;
  length: number;
};

const registered: { method: string; path: string }[] = [];
const answers: Answer[] = [];
let t: TestApp;
let document: Document;

/** Fastify's `/users/:id` as OpenAPI writes it: `/users/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

function operationOf(method: string, route: string): Operation | undefined {
  return document.paths[openApiPath(route)]?.[method.toLowerCase()];
}

beforeAll(async () => {
  t = await createWalletTestApp({
    config: { UPLOAD_DIR: mkdtempSync(path.join(tmpdir(), 'portal-openapi-')) },
    onRoute: (route) => {
      if ((route.schema as { hide?: boolean } | undefined)?.hide) return;
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') registered.push({ method, path: openApiPath(route.url) });
      }
    },
    beforeReady: (app) => {
      app.addHook('onResponse', async (request, reply) => {
        answers.push({
          method: request.method,
          route: request.routeOptions.url ?? '',
          status: reply.statusCode,
          contentType: String(reply.getHeader('content-type') ?? '').split(';')[0]!,
          length: Number(reply.getHeader('content-length') ?? 0),
        });
      });
    },
  });
  document = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
  // Every operation called bare: no session, no body, placeholder parameters.
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url: path.replace(/\{\w+\}/g, 'x'),
        remoteAddress: '10.77.0.1',
      });
    }
  }
  await walkTheSpecialRoutes();
});

describe('the OpenAPI document', () => {
  it('has every registered route, and no route that is not', () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routes = registered.map(({ method, path }) => `${method} ${path}`);
    expect(new Set(documented)).toEqual(new Set(routes));
    expect(routes.length).toBeGreaterThan(50);
  });

  it('describes each request body with the content type the route reads', () => {
    const bodies = Object.fromEntries(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => operation.requestBody)
          .map(([method, operation]) => [
            `${method.toUpperCase()} ${path}`,
            operation.requestBody!.content,
          ]),
      ),
    );
    const special: Record<string, string> = {
      'POST /upload': 'multipart/form-data',
      'POST /sandbox/tbank/pay/{checkoutToken}': 'application/x-www-form-urlencoded',
    };
    for (const [operation, content] of Object.entries(bodies)) {
      expect(Object.keys(content), operation).toEqual([special[operation] ?? 'application/json']);
    }
    expect(Object.keys(bodies)).toEqual(expect.arrayContaining(Object.keys(special)));
    expect(bodies['POST /upload']?.['multipart/form-data']?.schema).toMatchObject({
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    // The sandbox's T-Bank methods say which fields they read.
    for (const method of ['Init', 'GetQr', 'GetState', 'CheckOrder', 'Cancel']) {
      const schema = bodies[`POST /sandbox/tbank/v2/${method}`]?.['application/json']?.schema;
      expect(schema?.required, method).toEqual(expect.arrayContaining(['TerminalKey', 'Token']));
    }
  });

  it('documents every answer the routes gave, with its content type; a redirect has no body', () => {
    const undocumented: string[] = [];
    for (const answer of answers) {
      if (!answer.route || answer.route.startsWith('/docs')) continue;
      const operation = operationOf(answer.method, answer.route);
      if (!operation) continue; // Hidden routes (checked above: only those are missing).
      const name = `${answer.method} ${answer.route} → ${answer.status} ${answer.contentType}`;
      const documented = operation.responses[String(answer.status)];
      if (!documented) {
        undocumented.push(name);
        continue;
      }
      const types = Object.keys(documented.content ?? {});
      const fits =
        types.length === 0
          ? answer.length === 0 && documented.headers !== undefined
          : types.includes(answer.contentType);
      if (!fits) undocumented.push(`${name} (documented: ${types.join(', ') || 'no body'})`);
    }
    expect(undocumented).toEqual([]);
  });

  it('documents no success a route cannot give: each one the walk reached', () => {
    const reached = new Map<string, Set<string>>();
    for (const answer of answers) {
      if (answer.status >= 400 || !answer.route) continue;
      const key = `${answer.method} ${openApiPath(answer.route)}`;
      reached.set(key, (reached.get(key) ?? new Set()).add(String(answer.status)));
    }
    const walked = [
      'POST /upload',
      'GET /uploads/{key}',
      'GET /auth/yandex/callback',
      'GET /sandbox/tbank/pay/{checkoutToken}',
      'POST /sandbox/tbank/pay/{checkoutToken}',
      'POST /sandbox/tbank/v2/CheckOrder',
      'POST /authms/api/Auth/forgot-password',
    ];
    for (const key of walked) {
      const [method, path] = key.split(' ') as [string, string];
      const successes = Object.keys(document.paths[path]?.[method.toLowerCase()]?.responses ?? {})
        .filter((status) => Number(status) < 400)
        .sort();
      expect(successes, key).toEqual([...(reached.get(key) ?? [])].sort());
    }
  });

  it('documents the Yandex callback as the redirect it is', () => {
    const callback = document.paths['/auth/yandex/callback']?.get;
    expect(Object.keys(callback?.responses ?? {})).not.toContain('200');
    expect(callback?.responses['302']?.content).toBeUndefined();
    expect(callback?.responses['302']?.headers).toHaveProperty('Location');
  });
});

/** The answers a bare call cannot reach: uploads, the redirects, pages, both request shapes. */
async function walkTheSpecialRoutes() {
  const { app } = t;
  const { user, headers } = await createSignedInUser(t);

  const png = multipartBody([
    { filename: 'a.png', contentType: 'image/png', body: await pngImage(64, 64) },
  ]);
  const upload = await app.inject({
    method: 'POST',
    url: '/upload',
    headers: { ...headers, ...png.headers },
    payload: png.payload,
  });
  expect(upload.statusCode, upload.body).toBe(200);
  const noFile = multipartBody([
    { field: 'other', filename: 'a.png', contentType: 'image/png', body: Buffer.from('x') },
  ]);
  await app.inject({
    method: 'POST',
    url: '/upload',
    headers: { ...headers, ...noFile.headers },
    payload: noFile.payload,
  });
  const stored = new URL(upload.json().data, 'http://localhost').pathname;
  expect((await app.inject({ method: 'GET', url: stored })).statusCode).toBe(200);

  const callback = await app.inject({ method: 'GET', url: '/auth/yandex/callback?state=x' });
  expect(callback.statusCode).toBe(302);

  // A top-up through the sandbox checkout: the page, then «Оплатить» as its form posts it.
  const topUp = await requestTopUp(t, { user, headers }, 100);
  const checkout = new URL(topUp.json().data.paymentUrl);
  const page = await app.inject({ method: 'GET', url: checkout.pathname });
  expect(page.statusCode).toBe(200);
  const paid = await app.inject({
    method: 'POST',
    url: checkout.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'action=pay',
  });
  expect(paid.statusCode).toBe(303);
  await app.inject({ method: 'GET', url: '/sandbox/tbank/pay/no-such-token' });

  // A payment begun straight on the sandbox's API, with no return address: «Оплатить» answers
  // the page saying how it ended.
  const { terminalKey, password } = activeProvider(app);
  const sign = (fields: Record<string, unknown>) =>
    signTbankRequest({ TerminalKey: terminalKey, ...fields }, password);
  const orderId = `openapi-${Date.now()}`;
  const init = await app.inject({
    method: 'POST',
    url: '/sandbox/tbank/v2/Init',
    payload: sign({ Amount: 10_000, OrderId: orderId }),
  });
  const pageUrl = new URL(init.json().PaymentURL);
  const finished = await app.inject({
    method: 'POST',
    url: pageUrl.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'action=pay',
  });
  expect(finished.statusCode).toBe(200);
  const order = await app.inject({
    method: 'POST',
    url: '/sandbox/tbank/v2/CheckOrder',
    payload: sign({ OrderId: orderId }),
  });
  expect(order.json()).toMatchObject({ Success: true });

  // forgot-password: the bare string and { email } (password-reset.test.ts holds what they do).
  for (const payload of [JSON.stringify(user.email), JSON.stringify({ email: user.email })]) {
    await app.inject({
      method: 'POST',
      url: '/authms/api/Auth/forgot-password',
      headers: { 'content-type': 'application/json' },
      payload,
      remoteAddress: '10.77.0.2',
    });
  }
}
