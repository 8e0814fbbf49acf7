import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { MESSAGES } from '../http/error-handler.js';

const CONFIG_PLACEHOLDER = '<!--portal-config-->';

/** Settings the browser app reads at start (apps/web/src/config/runtime-config.ts). */
function webSettings(config: Config) {
  return {
    apiBaseUrl: config.API_BASE_URL,
    msApiBaseUrl: config.MS_API_BASE_URL,
    supportUrl: config.SUPPORT_URL,
    hostingUrl: config.HOSTING_URL,
    launcherUrl: config.LAUNCHER_URL,
    privacyUrl: config.PRIVACY_URL,
    brandName: config.BRAND_NAME,
  };
}

function renderIndexHtml(template: string, config: Config): string {
  // `<` escaped so that no value can close the script element.
  const json = JSON.stringify(webSettings(config)).replaceAll('<', '\\u003c');
  return template.replace(
    CONFIG_PLACEHOLDER,
    `<script id="portal-config" type="application/json">${json}</script>`,
  );
}

/**
 * Serves the built single-page app: its files as they are, and index.html (with the settings
 * injected) for every other GET that asks for HTML, so client-side routes survive a reload.
 * Everything else that matches no route is a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, config: Config) {
  const indexFile = path.join(config.WEB_DIST_DIR, 'index.html');
  const indexHtml = existsSync(indexFile)
    ? renderIndexHtml(readFileSync(indexFile, 'utf8'), config)
    : null;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: config.WEB_DIST_DIR,
      index: false,
      wildcard: false,
      allowedPath: (pathName) => pathName !== '/index.html',
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && indexHtml) {
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(indexHtml);
    }
    return reply.status(404).send({ message: MESSAGES.notFound });
  });
}
