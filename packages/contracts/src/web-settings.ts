import { z } from 'zod';

/**
 * The web app's runtime settings (docs/decisions/0003-runtime-web-settings.md): the server puts
 * them into index.html in place of `WEB_SETTINGS_PLACEHOLDER` and answers them at
 * `WEB_SETTINGS_PATH` (both in `web-settings-html.ts`), where the Vite dev server fetches them
 * (apps/web/vite-portal-config.ts). The app reads them field by field, each with its own fallback
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
