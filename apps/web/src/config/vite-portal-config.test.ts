import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from './runtime-config';

// `npm run dev`: the Vite dev server, started with the app's own vite.config.ts, in front of a
// stand-in of the portal server that answers its settings as the real one does.
const settings = {
  apiBaseUrl: '',
  msApiBaseUrl: '',
  supportUrl: 'https://t.me/dev_support',
  hostingUrl: 'https://hosting.example.com',
  launcherUrl: 'https://launcher.example.com',
  privacyUrl: 'https://hosting.example.com/privacy',
  brandName: '</script>Dev',
  isTelegramOffered: false,
  isYandexOffered: true,
};

let portal: Server;
let vite: ViteDevServer;
let viteUrl: string;

beforeAll(async () => {
  portal = createHttpServer((request, response) => {
    if (request.url !== '/portal-config') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(settings));
  });
  await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
  process.env.SERVER_URL = `http://127.0.0.1:${(portal.address() as AddressInfo).port}`;
  vite = await createViteServer({
    configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
    server: { port: 0, host: '127.0.0.1' },
    logLevel: 'silent',
  });
  await vite.listen();
  viteUrl = vite.resolvedUrls?.local[0] ?? '';
}, 30_000);

afterAll(async () => {
  await vite?.close();
  portal?.close();
  delete process.env.SERVER_URL;
});

describe('vite dev', () => {
  it("serves index.html with the running server's settings, as the server itself does", async () => {
    const page = await (await fetch(viteUrl, { headers: { accept: 'text/html' } })).text();
    const json = /<script id="portal-config" type="application\/json">(.*?)<\/script>/.exec(
      page,
    )?.[1];
    expect(page).not.toContain('</script>Dev');
    expect(parseRuntimeConfig(json)).toEqual(settings);
  });
});
