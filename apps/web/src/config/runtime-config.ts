import {
  WEB_SETTINGS_ELEMENT_ID,
  type WebSettings,
  webSettingsSchema,
} from '@portal/contracts/web-settings';
import { z } from 'zod';

/**
 * The settings the server injects into index.html (`injectWebSettings` of
 * @portal/contracts/web-settings). Under `vite` dev the dev server injects the running server's
 * settings the same way (`vite-portal-config.ts`); should it find no server, every field has a
 * fallback that works against the dev proxy, and nothing optional is offered. A field the server
 * sent malformed falls back alone.
 */
const field = webSettingsSchema.shape;

// A trailing slash would double up with the API paths, which all start with '/'.
const apiBase = field.apiBaseUrl.transform((value) => value.replace(/\/+$/, '')).catch('');

/** A missing field is malformed too: `catch` answers both. */
const withFallback = <T>(schema: z.ZodType<T>, fallback: T) => schema.catch(fallback);

const runtimeConfigSchema = z.object({
  apiBaseUrl: apiBase,
  msApiBaseUrl: apiBase,
  supportUrl: withFallback(field.supportUrl, 'https://t.me/gamehost_support'),
  hostingUrl: withFallback(field.hostingUrl, 'https://hosting.example.com'),
  launcherUrl: withFallback(field.launcherUrl, 'https://launcher.example.com'),
  privacyUrl: withFallback(field.privacyUrl, 'https://hosting.example.com/privacy'),
  brandName: withFallback(field.brandName.min(1), 'GameHost'),
  /** Without a Telegram bot linking Telegram is not offered (the profile reads «Недоступно»). */
  isTelegramOffered: withFallback(field.isTelegramOffered, false),
  /** Without a Yandex ID application neither sign-in nor linking by it is offered. */
  isYandexOffered: withFallback(field.isYandexOffered, false),
}) satisfies z.ZodType<WebSettings>;

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** Parses the injected JSON; anything missing or malformed falls back to its default. */
export function parseRuntimeConfig(raw: string | null | undefined): RuntimeConfig {
  let value: unknown = {};
  if (raw) {
    try {
      value = JSON.parse(raw);
    } catch {
      value = {};
    }
  }
  const parsed = runtimeConfigSchema.safeParse(value);
  return parsed.success ? parsed.data : runtimeConfigSchema.parse({});
}

function readInjectedConfig(): string | null {
  if (typeof document === 'undefined') return null;
  return document.getElementById(WEB_SETTINGS_ELEMENT_ID)?.textContent ?? null;
}

export const runtimeConfig: RuntimeConfig = parseRuntimeConfig(readInjectedConfig());
