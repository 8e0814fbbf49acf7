import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.js';

const dist = mkdtempSync(path.join(tmpdir(), 'portal-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><!--portal-config--></head><body><div id="root"></div></body></html>',
);
writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('serving the web app', () => {
  it('answers client routes with index.html carrying the settings', async () => {
    const { app } = await createTestApp({
      config: { WEB_DIST_DIR: dist, BRAND_NAME: '</script><b>x', SUPPORT_URL: 'https://t.me/help' },
    });
    for (const url of ['/', '/profile/devices', '/no/such/page']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<script id="portal-config" type="application/json">');
    }
    const page = (await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } }))
      .body;
    const json = /<script id="portal-config" type="application\/json">(.*?)<\/script>/.exec(
      page,
    )?.[1];
    expect(JSON.parse(json ?? '')).toMatchObject({
      supportUrl: 'https://t.me/help',
      brandName: '</script><b>x',
    });
    expect(page).not.toContain('</script><b>');
  });

  it('serves built files with long caching and never the raw template', async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    const asset = await app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const raw = await app.inject({
      method: 'GET',
      url: '/index.html',
      headers: { accept: 'text/html' },
    });
    expect(raw.body).not.toContain('<!--portal-config-->');
  });

  it('answers API clients with JSON 404, not the page', async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    const response = await app.inject({
      method: 'GET',
      url: '/serversms/api/none',
      headers: { accept: 'application/json' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Не найдено' });
  });
});
