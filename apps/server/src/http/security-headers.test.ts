import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.js';

// A built web app of one page, to ask for a page.
const dist = mkdtempSync(path.join(tmpdir(), 'portal-page-'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>x</title>');
afterAll(() => rmSync(dist, { recursive: true, force: true }));
const page = { method: 'GET', url: '/profile', headers: { accept: 'text/html' } } as const;

describe('security headers and API docs', () => {
  it('sends the headers of DESIGN §7 on every page', async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    const response = await app.inject(page);
    expect(response.headers['content-type']).toContain('text/html');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    // HSTS only makes sense behind HTTPS; the test config is plain HTTP.
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends API answers, errors included, a policy that allows nothing', async () => {
    const { app } = await createTestApp();
    for (const url of ['/health', '/authms/api/Auth/no-such-route']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });

  it('sends HSTS when the portal is served over HTTPS', async () => {
    const { app } = await createTestApp({
      config: { PUBLIC_URL: 'https://id.example.com', WEB_DIST_DIR: dist },
    });
    for (const request of [{ method: 'GET', url: '/health' } as const, page]) {
      const response = await app.inject(request);
      expect(response.headers['strict-transport-security']).toContain('max-age=31536000');
    }
  });

  it('serves the OpenAPI document and its page at /docs', async () => {
    const { app } = await createTestApp();
    const page = await app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/ready');
  });
});
