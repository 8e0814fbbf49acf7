import { z } from 'zod';

/**
 * Settings the server injects into index.html (the `<!--portal-config-->` placeholder becomes
 * `<script id="portal-config" type="application/json">`). Under `vite` dev the dev server injects
 * the running server's settings the same way (`vite-portal-config.ts`); should it find no
 * server, every field has a default that works against the dev proxy, and nothing optional is
 * offered.
 */
// A trailing slash would double up with the API paths, which all start with '/'.
const apiBase = z
  .string()
  .transform((value) => value.replace(/\/+$/, ''))
  .catch('')
  .default('');

const runtimeConfigSchema = z.object({
  /** Base of the main API (uploads, Yandex, payment history); '' means this origin. */
  apiBaseUrl: apiBase,
  /** Base of the microservice API (`/authms`, `/paymentms`, …); '' means this origin. */
  msApiBaseUrl: apiBase,
  supportUrl: z
    .string()
    .catch('https://t.me/gamehost_support')
    .default('https://t.me/gamehost_support'),
  hostingUrl: z
    .string()
    .catch('https://hosting.example.com')
    .default('https://hosting.example.com'),
  launcherUrl: z
    .string()
    .catch('https://launcher.example.com')
    .default('https://launcher.example.com'),
  privacyUrl: z
    .string()
    .catch('https://hosting.example.com/privacy')
    .default('https://hosting.example.com/privacy'),
  brandName: z.string().min(1).catch('GameHost').default('GameHost'),
  /** The server has a Telegram bot: linking Telegram is offered (else «Недоступно»). */
  isTelegramOffered: z.boolean().catch(false).default(false),
  /** The server has a Yandex ID application: sign-in and linking by it are offered. */
  isYandexOffered: z.boolean().catch(false).default(false),
});

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
  return document.getElementById('portal-config')?.textContent ?? null;
}

export const runtimeConfig: RuntimeConfig = parseRuntimeConfig(readInjectedConfig());
