import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.js';

describe('security headers and API docs', () => {
  it('sends the headers of DESIGN §7 on every answer', async () => {
    const { app } = await createTestApp();
    const response = await app.inject({ method: 'GET', url: '/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    // HSTS only makes sense behind HTTPS; the test config is plain HTTP.
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS when the portal is served over HTTPS', async () => {
    const { app } = await createTestApp({ config: { PUBLIC_URL: 'https://id.example.com' } });
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.headers['strict-transport-security']).toContain('max-age=31536000');
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
