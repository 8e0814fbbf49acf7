import type { Plugin } from 'vite';
// By path, not as '@portal/contracts/web-settings': Vite bundles its config's relative imports but
// leaves every package import to Node, which cannot load the contracts' TypeScript source, so the
// package name would break `vite`, `vite build` and every other way the config is loaded.
import { webSettingsSchema } from '../../packages/contracts/src/web-settings.ts';
import {
  injectWebSettings,
  WEB_SETTINGS_PATH,
} from '../../packages/contracts/src/web-settings-html.ts';

/** `npm run dev` starts Vite and the server together; the server may take a moment to listen. */
const WAIT_FOR_SERVER_MS = 15_000;
const RETRY_EVERY_MS = 250;

/**
 * `vite` dev: index.html gets the running server's settings exactly as the server injects them
 * in production (the same `injectWebSettings`), so what the app offers (Yandex ID, Telegram)
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
        const answer = await fetchSettings(serverUrl);
        const settings = webSettingsSchema.safeParse(answer);
        if (!settings.success) {
          context.server?.config.logger.warn(
            `portal settings: ${serverUrl}${WEB_SETTINGS_PATH} ${answer === null ? 'did not answer' : 'answered settings this app does not know'}; using the defaults`,
          );
          return html;
        }
        return injectWebSettings(html, settings.data);
      },
    },
  };
}

/** The server's answer, or null when it did not answer within `WAIT_FOR_SERVER_MS`. */
async function fetchSettings(serverUrl: string): Promise<unknown> {
  const deadline = Date.now() + WAIT_FOR_SERVER_MS;
  for (;;) {
    try {
      const response = await fetch(`${serverUrl}${WEB_SETTINGS_PATH}`, {
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
