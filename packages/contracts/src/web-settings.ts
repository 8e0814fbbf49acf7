import { z } from 'zod';

/**
 * The web app's runtime settings (docs/decisions/0003-runtime-web-settings.md): the server puts
 * them into index.html in place of `WEB_SETTINGS_PLACEHOLDER` and answers them at
 * `WEB_SETTINGS_PATH`, where the Vite dev server fetches them (apps/web/vite-portal-config.ts).
 * The app reads them field by field, each with its own fallback
 * (apps/web/src/config/runtime-config.ts).
 */
export const webSettingsSchema = z.object({
  /** Base of the main API (uploads, Yandex, payment history); '' means the page's origin. */
  apiBaseUrl: z.string(),
  /** Base of the microservice API (`/authms`, `/paymentms`, …); '' means the page's origin. */
  msApiBaseUrl: z.string(),
  supportUrl: z.string(),
  hostingUrl: z.string(),
  launcherUrl: z.string(),
  privacyUrl: z.string(),
  brandName: z.string(),
  /** A Telegram bot is configured: the profile offers to link Telegram. */
  isTelegramOffered: z.boolean(),
  /** A Yandex ID application is configured: sign-in and linking by Yandex ID are offered. */
  isYandexOffered: z.boolean(),
});
export type WebSettings = z.infer<typeof webSettingsSchema>;

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
