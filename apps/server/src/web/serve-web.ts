import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import { NOT_FOUND } from '@portal/contracts/messages';
import { isPagePath } from '@portal/contracts/page-paths';
import { type WebSettings, webSettingsSchema } from '@portal/contracts/web-settings';
import { injectWebSettings, WEB_SETTINGS_PATH } from '@portal/contracts/web-settings-html';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
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

/** The build's `route-preloads.json`: address → files its first paint loads; none when absent. */
function readRoutePreloads(distDir: string): Record<string, string[]> {
  const file = path.join(distDir, 'route-preloads.json');
  if (!existsSync(file)) return {};
  const preloads = z.record(z.string(), z.array(z.string().regex(/^\/assets\/[\w.-]+$/)));
  return preloads.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * index.html with a preload link per file: scripts as modules (as Vite links its own), styles.
 * Both `crossorigin`, as Vite's loader asks for them: a preload whose credentials mode differs is
 * not used, and the file comes a second time once the app's code has run.
 */
function withPreloads(html: string, files: string[]): string {
  const links = files.map((file) =>
    file.endsWith('.css')
      ? `<link rel="preload" as="style" crossorigin href="${file}">`
      : `<link rel="modulepreload" crossorigin href="${file}">`,
  );
  return html.replace('</head>', `${links.join('')}</head>`);
}

/**
 * Serves the built single-page app: its files, each as the brotli or gzip copy the build wrote
 * beside it when the browser accepts one (apps/web/vite.config.ts), and index.html (with the
 * settings injected, compressed once at start) for every other GET that asks for HTML, so
 * client-side routes survive a reload, and for a GET of any of the app's pages whatever it asks
 * for (curl asks for any type, a script perhaps for none or for JSON). Everything else that
 * matches no route is a JSON 404: an API call to a missing address, a missing file.
 */
export async function registerWebApp(app: FastifyInstance, config: Config) {
  const indexFile = path.join(config.WEB_DIST_DIR, 'index.html');
  const template = existsSync(indexFile)
    ? injectWebSettings(readFileSync(indexFile, 'utf8'), webSettings(config))
    : null;
  const page = template === null ? null : encodedPage(template);
  // The page of an address whose first paint loads files lazily names them, so they download
  // beside the app's own (apps/web/route-preloads.ts writes the list at build).
  const routePages = new Map(
    template === null
      ? []
      : Object.entries(readRoutePreloads(config.WEB_DIST_DIR)).map(([route, files]) => [
          route,
          encodedPage(withPreloads(template, files)),
        ]),
  );

  if (page) {
    const files = {
      index: false as const,
      wildcard: false,
      preCompressed: true,
      // The copies are chosen by Accept-Encoding, never addressed by their own names.
      globIgnore: ['**/*.br', '**/*.gz'],
    };
    // The build's scripts and styles: a hashed name never changes its content, so a browser
    // keeps them for a year without asking again, and they carry no validators (ETag,
    // Last-Modified) or range support: each such header is bytes on every file of a first visit.
    await app.register(fastifyStatic, {
      ...files,
      root: path.join(config.WEB_DIST_DIR, 'assets'),
      prefix: '/assets/',
      maxAge: '365d',
      immutable: true,
      etag: false,
      lastModified: false,
      acceptRanges: false,
    });
    // The rest (icons, images) keeps its name across builds: revalidated by its validators.
    await app.register(fastifyStatic, {
      ...files,
      root: config.WEB_DIST_DIR,
      decorateReply: false,
      globIgnore: [...files.globIgnore, 'assets/**'],
      allowedPath: (pathName) => pathName !== '/index.html',
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
    const pathname = request.url.split('?')[0] ?? '';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      ((request.headers.accept ?? '').includes('text/html') || isPagePath(pathname));
    if (wantsPage && page) {
      const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
      if (encoding) reply.header('Content-Encoding', encoding);
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Accept-Encoding')
        .send((routePages.get(pathname) ?? page)[encoding ?? 'identity']);
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
