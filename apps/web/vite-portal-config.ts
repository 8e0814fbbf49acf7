import type { Plugin } from 'vite';

/** Where the server answers its web settings as JSON (`WEB_SETTINGS_PATH` of serve-web.ts). */
const SETTINGS_PATH = '/portal-config';
const PLACEHOLDER = '<!--portal-config-->';
/** `npm run dev` starts Vite and the server together; the server may take a moment to listen. */
const WAIT_FOR_SERVER_MS = 15_000;
const RETRY_EVERY_MS = 250;

/**
 * `vite` dev: index.html gets the running server's settings exactly as the server injects them
 * in production (`apps/server/src/web/serve-web.ts`), so what the app offers (Yandex ID, Telegram)
 * and its links are right in development too. With no server answering, the placeholder stays
 * and the app's defaults apply (`src/config/runtime-config.ts`); Vite's log says so.
 */
export function portalConfigFromServer(serverUrl: string): Plugin {
  return {
    name: 'portal-config-from-server',
    apply: 'serve',
    transformIndexHtml: {
      order: 'pre',
      async handler(html, context) {
        const settings = await fetchSettings(serverUrl);
        if (settings === null) {
          context.server?.config.logger.warn(
            `portal settings: ${serverUrl}${SETTINGS_PATH} did not answer; using the defaults`,
          );
          return html;
        }
        return html.replace(PLACEHOLDER, settingsElement(settings));
      },
    },
  };
}

/** The element the server renders; `<` escaped so that no value can close the script. */
export function settingsElement(settings: unknown): string {
  const json = JSON.stringify(settings).replaceAll('<', '\\u003c');
  return `<script id="portal-config" type="application/json">${json}</script>`;
}

async function fetchSettings(serverUrl: string): Promise<unknown> {
  const deadline = Date.now() + WAIT_FOR_SERVER_MS;
  for (;;) {
    try {
      const response = await fetch(`${serverUrl}${SETTINGS_PATH}`, {
        signal: AbortSignal.timeout(2_000),
      });
      if (response.ok) return await response.json();
    } catch {
      // Not listening yet (or restarting after a change).
    }
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
  }
}
