import { describe, expect, it } from 'vitest';
import { createWalletTestApp } from '../../../test/support/wallet.js';
import { testConfig } from '../../config.js';
import { loadCatalogue } from './catalogue.js';

describe('service catalogue', () => {
  const testApp = createWalletTestApp();

  it('serves hosting and the launcher, both active, to anyone', async () => {
    const t = await testApp;
    const response = await t.app.inject({ method: 'GET', url: '/serversms/api/Servers/catalogue' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      expect.objectContaining({ link: t.config.HOSTING_URL, status: 'active' }),
      expect.objectContaining({ link: t.config.LAUNCHER_URL, status: 'active' }),
    ]);
  });

  it('takes SERVICE_CATALOGUE when set, and stops the start when it is wrong', () => {
    const items = [
      {
        imgUrl: '/a.svg',
        title: 'Лаунчер',
        description: 'Скоро',
        link: 'https://l.example',
        status: 'soon',
      },
    ];
    expect(loadCatalogue(testConfig({ SERVICE_CATALOGUE: JSON.stringify(items) }))).toEqual(items);
    expect(loadCatalogue(testConfig({ SERVICE_CATALOGUE: '[]' }))).toEqual([]);
    expect(() => loadCatalogue(testConfig({ SERVICE_CATALOGUE: '{' }))).toThrow(
      /SERVICE_CATALOGUE/,
    );
    expect(() =>
      loadCatalogue(
        testConfig({ SERVICE_CATALOGUE: JSON.stringify([{ ...items[0], status: 'maybe' }]) }),
      ),
    ).toThrow(/SERVICE_CATALOGUE/);
  });

  it('documents every wallet, services and sibling route in OpenAPI', async () => {
    const t = await testApp;
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    const expected: [string, string, string][] = [
      ['/paymentms/api/Payment/create', 'post', 'wallet'],
      ['/paymentms/api/Payment/sbp/qr', 'post', 'wallet'],
      ['/paymentms/api/Payment/notification', 'post', 'wallet'],
      ['/payments/payments/user', 'get', 'wallet'],
      ['/serversms/api/Servers/owner/services', 'get', 'services'],
      ['/serversms/api/Servers/catalogue', 'get', 'services'],
      ['/serversms/api/Sibling/orders', 'post', 'sibling'],
      ['/serversms/api/Sibling/services/{externalId}', 'patch', 'sibling'],
      ['/serversms/api/Sibling/users/{userId}/wallet', 'get', 'sibling'],
      ['/serversms/api/Sibling/users/{userId}/services', 'get', 'sibling'],
    ];
    for (const [path, method, tag] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.tags).toContain(tag);
      expect(Object.keys(operation.responses)).toContain('200');
    }
    expect(document.paths['/serversms/api/Sibling/orders'].post.security).toEqual([
      { siblingApiKey: [] },
    ]);
    expect(document.components.securitySchemes.siblingApiKey).toMatchObject({
      in: 'header',
      name: 'X-Api-Key',
    });
  });
});
