import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import { NOT_FOUND } from '@portal/contracts/messages';
import { type WebSettings, webSettingsSchema } from '@portal/contracts/web-settings';
import { injectWebSettings, WEB_SETTINGS_PATH } from '@portal/contracts/web-settings-html';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type {} from '../core-plugin.js';

/** Settings the browser app reads at start (apps/web/src/config/runtime-config.ts). */
function webSettings(config: Config): WebSettings {
  return {
    apiBaseUrl: config.API_BASE_URL,
    msApiBaseUrl: config.MS_API_BASE_URL,
    supportUrl: config.SUPPORT_URL,
    hostingUrl: config.HOSTING_URL,
    launcherUrl: config.LAUNCHER_URL,
    privacyUrl: config.PRIVACY_URL,
    brandName: config.BRAND_NAME,
    isTelegramOffered: Boolean(config.TELEGRAM_BOT_TOKEN),
    isYandexOffered: Boolean(config.YANDEX_CLIENT_ID),
  };
}

/** The page in each encoding a browser may ask for, compressed once: the settings are fixed. */
function encodedPage(html: string) {
  return {
    br: brotliCompressSync(html),
    gzip: gzipSync(html),
    identity: Buffer.from(html),
  };
}

/**
 * Serves the built single-page app: its files, each as the brotli or gzip copy the build wrote
 * beside it when the browser accepts one (apps/web/vite.config.ts), and index.html (with the
 * settings injected, compressed once at start) for every other GET that asks for HTML, so
 * client-side routes survive a reload. Everything else that matches no route is a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, config: Config) {
  const indexFile = path.join(config.WEB_DIST_DIR, 'index.html');
  const page = existsSync(indexFile)
    ? encodedPage(injectWebSettings(readFileSync(indexFile, 'utf8'), webSettings(config)))
    : null;

  if (page) {
    await app.register(fastifyStatic, {
      root: config.WEB_DIST_DIR,
      index: false,
      wildcard: false,
      preCompressed: true,
      // The copies are chosen by Accept-Encoding, never addressed by their own names.
      globIgnore: ['**/*.br', '**/*.gz'],
      allowedPath: (pathName) => pathName !== '/index.html',
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.get(
    WEB_SETTINGS_PATH,
    {
      schema: {
        tags: ['web'],
        summary:
          'Настройки веб-приложения, те же, что вставлены в index.html (их берёт сервер Vite при разработке)',
        response: { 200: webSettingsSchema },
      },
    },
    async () => webSettings(config),
  );

  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && page) {
      const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
      if (encoding) reply.header('Content-Encoding', encoding);
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Accept-Encoding')
        .send(page[encoding ?? 'identity']);
    }
    return reply.status(404).send({ message: NOT_FOUND });
  });
}

/** The built web app, and the not-found answer of everything no module serves. */
export const webAppPlugin = fp(
  async (app) => {
    await registerWebApp(app, app.deps.config);
  },
  { name: 'web-app', dependencies: ['core'] },
);
