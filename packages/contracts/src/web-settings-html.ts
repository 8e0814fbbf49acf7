// How the web app's settings travel in its page, without zod: the app reads them before zod
// loads (`web-settings.ts` has their schema).
import type { WebSettings } from './web-settings';

/** Where the server answers the settings as JSON. */
export const WEB_SETTINGS_PATH = '/portal-config';
/** What index.html (apps/web/index.html) holds where the settings go. */
export const WEB_SETTINGS_PLACEHOLDER = '<!--portal-config-->';
/** The id of the element the app reads the settings from. */
export const WEB_SETTINGS_ELEMENT_ID = 'portal-config';

/**
 * `html` with its placeholder replaced by the settings as a JSON `<script>` element: data, never
 * run, so the strict CSP stays intact. Every `<` is written as `\u003c` (the same string to
 * JSON.parse), so no value can close the element.
 */
export function injectWebSettings(html: string, settings: WebSettings): string {
  const json = JSON.stringify(settings).replaceAll('<', '\\u003c');
  return html.replace(
    WEB_SETTINGS_PLACEHOLDER,
    `<script id="${WEB_SETTINGS_ELEMENT_ID}" type="application/json">${json}</script>`,
  );
}
