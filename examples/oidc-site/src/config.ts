/**
 * The site's settings, read from the environment once at start. A wrong one stops the start
 * with one line per mistake, so a copy of this site fails loudly rather than half-working.
 */
export interface SiteConfig {
  /** The portal's PUBLIC_URL: the issuer, discovery at PORTAL_URL/.well-known/openid-configuration. */
  portalUrl: URL;
  /** Where browsers reach this site; the redirect URIs of its client are made from it. */
  siteUrl: URL;
  port: number;
  /** Unset: every address of the machine, as Node listens by default. */
  host: string | undefined;
  clientId: string;
  clientSecret: string;
}

export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv = process.env): SiteConfig {
  const problems: string[] = [];
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    problems.push('PORT: ожидается номер порта от 1 до 65535');
  }
  const portalUrl = origin('PORTAL_URL', env.PORTAL_URL ?? 'http://localhost:3000', problems);
  const siteUrl = origin('SITE_URL', env.SITE_URL ?? `http://localhost:${port}`, problems);
  const clientId = env.CLIENT_ID ?? 'example-site';
  const clientSecret = env.CLIENT_SECRET ?? '';
  if (clientSecret.length < 32) {
    problems.push('CLIENT_SECRET: нужен секрет клиента из OIDC_CLIENTS портала (от 32 символов)');
  }
  if (problems.length > 0 || !portalUrl || !siteUrl) throw new ConfigError(problems.join('\n'));
  return { portalUrl, siteUrl, port, host: env.HOST || undefined, clientId, clientSecret };
}

/** An origin with no path: the issuer must equal it exactly, and the site's URIs are built on it. */
function origin(name: string, value: string, problems: string[]): URL | undefined {
  try {
    const url = new URL(value);
    if (url.href === `${url.origin}/`) return url;
  } catch {
    // Reported below, with the setting's name.
  }
  problems.push(`${name}: ожидается адрес без пути, например http://localhost:3000`);
  return undefined;
}
