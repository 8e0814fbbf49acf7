import type { WebSettings } from '@portal/contracts/web-settings';
import { WEB_SETTINGS_ELEMENT_ID } from '@portal/contracts/web-settings-html';

/**
 * The settings the server injects into index.html (`injectWebSettings` of
 * @portal/contracts/web-settings-html). Under `vite` dev the dev server injects the running server's
 * settings the same way (`vite-portal-config.ts`); should it find no server, every field has a
 * fallback that works against the dev proxy, and nothing optional is offered. A field the server
 * sent malformed falls back alone.
 */
export type RuntimeConfig = WebSettings;

const DEFAULTS: RuntimeConfig = {
  apiBaseUrl: '',
  msApiBaseUrl: '',
  supportUrl: 'https://t.me/gamehost_support',
  hostingUrl: 'https://hosting.example.com',
  launcherUrl: 'https://launcher.example.com',
  privacyUrl: 'https://hosting.example.com/privacy',
  brandName: 'GameHost',
  /** Without a Telegram bot linking Telegram is not offered (the profile reads «Недоступно»). */
  isTelegramOffered: false,
  /** Without a Yandex ID application neither sign-in nor linking by it is offered. */
  isYandexOffered: false,
};

/**
 * Parses the injected JSON; anything missing or malformed falls back to its default. Checked by
 * hand, the same checks as `webSettingsSchema`: the app reads its settings before anything else,
 * and zod loads only with the first form checked (shared/lib/lazy-resolver.ts).
 */
export function parseRuntimeConfig(raw: string | null | undefined): RuntimeConfig {
  let value: unknown = {};
  if (raw) {
    try {
      value = JSON.parse(raw);
    } catch {
      value = {};
    }
  }
  const injected: Partial<Record<keyof RuntimeConfig, unknown>> =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  const text = (key: keyof RuntimeConfig, fallback: string) => {
    const field = injected[key];
    return typeof field === 'string' ? field : fallback;
  };
  const flag = (key: keyof RuntimeConfig, fallback: boolean) => {
    const field = injected[key];
    return typeof field === 'boolean' ? field : fallback;
  };
  // A trailing slash would double up with the API paths, which all start with '/'.
  const apiBase = (key: 'apiBaseUrl' | 'msApiBaseUrl') => text(key, '').replace(/\/+$/, '');
  return {
    apiBaseUrl: apiBase('apiBaseUrl'),
    msApiBaseUrl: apiBase('msApiBaseUrl'),
    supportUrl: text('supportUrl', DEFAULTS.supportUrl),
    hostingUrl: text('hostingUrl', DEFAULTS.hostingUrl),
    launcherUrl: text('launcherUrl', DEFAULTS.launcherUrl),
    privacyUrl: text('privacyUrl', DEFAULTS.privacyUrl),
    brandName: text('brandName', '') || DEFAULTS.brandName,
    isTelegramOffered: flag('isTelegramOffered', DEFAULTS.isTelegramOffered),
    isYandexOffered: flag('isYandexOffered', DEFAULTS.isYandexOffered),
  };
}

function readInjectedConfig(): string | null {
  if (typeof document === 'undefined') return null;
  return document.getElementById(WEB_SETTINGS_ELEMENT_ID)?.textContent ?? null;
}

export const runtimeConfig: RuntimeConfig = parseRuntimeConfig(readInjectedConfig());
