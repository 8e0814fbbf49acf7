import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSignedInUser, createUser, DEFAULT_PASSWORD } from '../../test/support/fixtures.js';
import { createTestApp } from '../../test/support/test-app.js';

// A built web app of one page, to ask for a page.
const dist = mkdtempSync(path.join(tmpdir(), 'portal-page-'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>x</title>');
writeFileSync(path.join(dist, 'app.js'), 'console.log(1)');
writeFileSync(path.join(dist, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
afterAll(() => rmSync(dist, { recursive: true, force: true }));
const page = { method: 'GET', url: '/profile', headers: { accept: 'text/html' } } as const;

describe('security headers and API docs', () => {
  it('sends a page a CSP to its own origin, no framing, nosniff and no referrer', async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    const response = await app.inject(page);
    expect(response.headers['content-type']).toContain('text/html');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("base-uri 'none'");
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

  it('sends a file that is not a page (script, image) only the short headers of an API answer', async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    for (const url of ['/app.js', '/logo.svg']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      // An SVG opened on its own is a document: its policy lets it run and load nothing.
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      // Headers only a page reads are not repeated on each of the files it loads.
      expect(response.headers['x-frame-options']).toBeUndefined();
      expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
    }
  });

  it('tells caches not to keep personal answers: authenticated requests and sign-in calls', async () => {
    const testApp = await createTestApp();
    const { headers } = await createSignedInUser(testApp);
    const requests = [
      { method: 'POST', url: '/authms/api/Auth/user', headers },
      { method: 'POST', url: '/authms/api/Auth/devices', headers },
      { method: 'POST', url: '/authms/api/Auth/user', headers: { authorization: 'Bearer dead' } },
      { method: 'GET', url: '/authms/api/Auth/no-such-route', headers },
      { method: 'GET', url: '/health', headers: { 'x-api-key': 'whatever' } },
    ] as const;
    for (const request of requests) {
      const response = await testApp.app.inject(request);
      expect(response.headers['cache-control'], request.url).toBe('no-store');
    }
    // Anonymous public answers stay cacheable as their routes decide.
    const health = await testApp.app.inject({ method: 'GET', url: '/health' });
    expect(health.headers['cache-control']).toBeUndefined();

    // Sign-in calls carry no token yet but answer one (or refuse to).
    const user = await createUser(testApp);
    const calls = [
      {
        url: '/authms/api/Auth/login',
        payload: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
        status: 200,
      },
      {
        url: '/authms/api/Auth/verify-registration',
        payload: { email: user.email, code: '123456' },
        status: 400,
      },
      { url: '/authms/api/Auth/verify-token', payload: { token: 'unknown' }, status: 401 },
    ];
    for (const { url, payload, status } of calls) {
      const response = await testApp.app.inject({ method: 'POST', url, payload });
      expect(response.statusCode, url).toBe(status);
      expect(response.headers['cache-control'], url).toBe('no-store');
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
