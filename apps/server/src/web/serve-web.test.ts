import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/support/test-app.js';

const dist = mkdtempSync(path.join(tmpdir(), 'portal-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><!--portal-config--></head><body><div id="root"></div></body></html>',
);
writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
// A script the build compressed (apps/web/vite.config.ts): its .br and .gz lie beside it.
const script = 'export const greeting = "hello";\n'.repeat(40);
writeFileSync(path.join(dist, 'assets', 'big-5678.js'), script);
writeFileSync(path.join(dist, 'assets', 'big-5678.js.br'), brotliCompressSync(script));
writeFileSync(path.join(dist, 'assets', 'big-5678.js.gz'), gzipSync(script));
// A file whose name stays across builds, compressed as the build does.
const icon = `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0h1v1z"/>'.repeat(40)}</svg>`;
writeFileSync(path.join(dist, 'favicon.svg'), icon);
writeFileSync(path.join(dist, 'favicon.svg.br'), brotliCompressSync(icon));
writeFileSync(path.join(dist, 'favicon.svg.gz'), gzipSync(icon));
// What the build lists for /auth (apps/web/route-preloads.ts).
writeFileSync(
  path.join(dist, 'route-preloads.json'),
  JSON.stringify({ '/auth': ['/assets/auth-page-1.js', '/assets/auth-page-2.css'] }),
);
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

  it('tells the web app whether Telegram linking and Yandex ID are offered', async () => {
    const settingsOf = async (config: Record<string, string | undefined>) => {
      const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist, ...config } });
      const page = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      const injected = /<script id="portal-config" type="application\/json">(.*?)<\/script>/.exec(
        page.body,
      )?.[1];
      // The same settings as JSON, for the Vite dev server (apps/web/vite-portal-config.ts).
      const served = await app.inject({ method: 'GET', url: '/portal-config' });
      expect(served.statusCode).toBe(200);
      expect(served.json()).toEqual(JSON.parse(injected ?? ''));
      return served.json();
    };
    expect(
      await settingsOf({ TELEGRAM_BOT_TOKEN: undefined, YANDEX_CLIENT_ID: undefined }),
    ).toMatchObject({ isTelegramOffered: false, isYandexOffered: false });
    expect(
      await settingsOf({ TELEGRAM_BOT_TOKEN: undefined, YANDEX_CLIENT_ID: 'yandex-app' }),
    ).toMatchObject({ isTelegramOffered: false, isYandexOffered: true });
  });

  it('names the files /auth loads lazily in its page, so they download beside the app', async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    const pageOf = (url: string) =>
      app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    for (const url of ['/auth', '/auth?next=%2Fprofile']) {
      const auth = await pageOf(url);
      expect(auth.statusCode).toBe(200);
      expect(auth.body).toContain(
        '<link rel="modulepreload" crossorigin href="/assets/auth-page-1.js">' +
          '<link rel="preload" as="style" crossorigin href="/assets/auth-page-2.css"></head>',
      );
    }
    for (const url of ['/', '/profile', '/authx']) {
      expect((await pageOf(url)).body).not.toContain('preload');
    }
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

  it('serves the compressed file the browser accepts, brotli first, with Vary', async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    const get = (acceptEncoding?: string) =>
      app.inject({
        method: 'GET',
        url: '/assets/big-5678.js',
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });

    const brotli = await get('gzip, deflate, br, zstd');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);

    const gzip = await get('gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);

    for (const identity of [await get(), await get('identity')]) {
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body).toBe(script);
    }
    for (const response of [brotli, gzip, await get()]) {
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['content-type']).toMatch(
        /^(text|application)\/javascript; charset=utf-8$/,
      );
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // Never asked again, so no validators or ranges: bytes on every file of a first visit.
      for (const header of ['etag', 'last-modified', 'accept-ranges']) {
        expect(response.headers[header], header).toBeUndefined();
      }
    }
    // A file the build left uncompressed (too small to gain) is sent as it is.
    const small = await app.inject({
      method: 'GET',
      url: '/assets/app-1234.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log(1)');
  });

  it("answers a revalidation of a file kept across builds with 304 per encoding, never another encoding's body", async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    const get = (acceptEncoding: string, ifNoneMatch?: string) =>
      app.inject({
        method: 'GET',
        url: '/favicon.svg',
        headers: {
          'accept-encoding': acceptEncoding,
          ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
        },
      });
    const brotli = await get('br');
    const gzip = await get('gzip');
    expect(brotli.headers.etag).toBeTruthy();
    expect(brotli.headers.etag).not.toBe(gzip.headers.etag);

    const again = await get('br', String(brotli.headers.etag));
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The brotli tag does not match what a gzip-only client gets: it receives its full body.
    const other = await get('gzip', String(brotli.headers.etag));
    expect(other.statusCode).toBe(200);
    expect(gunzipSync(other.rawPayload).toString()).toBe(icon);
  });

  it('does not serve the compressed copies under their own names', async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    for (const url of [
      '/assets/big-5678.js.br',
      '/assets/big-5678.js.gz',
      '/favicon.svg.br',
      '/favicon.svg.gz',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
    }
  });

  it('compresses the page with its settings for browsers that accept it', async () => {
    const { app } = await createTestApp({
      config: { WEB_DIST_DIR: dist, SUPPORT_URL: 'https://t.me/help' },
    });
    const page = (acceptEncoding?: string) =>
      app.inject({
        method: 'GET',
        url: '/profile',
        headers: {
          accept: 'text/html',
          ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
        },
      });
    const plain = await page();
    expect(plain.body).toContain('"supportUrl":"https://t.me/help"');
    expect(plain.headers['content-encoding']).toBeUndefined();

    const brotli = await page('gzip, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    const gzip = await page('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);

    for (const response of [plain, brotli, gzip]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
    }
  });

  it("answers a GET of the app's pages with the page whatever the Accept header", async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    // curl sends */*; a script may send none, JSON's type or plain text.
    const accepts = ['*/*', undefined, 'application/json', 'text/plain'];
    for (const url of ['/', '/profile', '/wallet/receipts/r-1', '/auth?next=%2Fprofile']) {
      for (const accept of accepts) {
        const response = await app.inject({
          method: 'GET',
          url,
          headers: accept === undefined ? {} : { accept },
        });
        expect(response.statusCode, `${url} ${accept}`).toBe(200);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.body).toContain('<script id="portal-config" type="application/json">');
      }
    }
    const head = await app.inject({ method: 'HEAD', url: '/', headers: { accept: '*/*' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers a miss outside the pages with JSON 404 unless it asks for HTML', async () => {
    const { app } = await createTestApp({ config: { WEB_DIST_DIR: dist } });
    for (const url of ['/serversms/api/none', '/authms/api/Auth/none', '/assets/gone-1.js']) {
      for (const accept of ['*/*', undefined, 'application/json', 'text/plain']) {
        const response = await app.inject({
          method: 'GET',
          url,
          headers: accept === undefined ? {} : { accept },
        });
        expect(response.statusCode, `${url} ${accept}`).toBe(404);
        expect(response.json()).toEqual({ message: 'Не найдено' });
      }
    }
    // Not a GET: the page is never the answer.
    const post = await app.inject({ method: 'POST', url: '/', headers: { accept: '*/*' } });
    expect(post.statusCode).toBe(404);
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
