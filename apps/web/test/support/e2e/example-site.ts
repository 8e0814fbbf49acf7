import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { startChildServer } from './child-server';
import { repoRoot } from './paths';

/**
 * The example site of examples/oidc-site, started the way its README says: the client of
 * `portal-client.json` in the portal's OIDC_CLIENTS, and the README's own command line. Only the
 * addresses change (free ports on 127.0.0.1 instead of localhost:3000 and :4000), so a README
 * whose client or command no longer works fails the test.
 */
const exampleDir = path.join(repoRoot, 'examples/oidc-site');
const README_ORIGIN = 'http://localhost:4000';
const START_TIMEOUT_MS = 30_000;

/**
 * `portal-client.json` as OIDC_CLIENTS, its addresses moved to `siteOrigin`; the README must
 * show the same client.
 */
export function exampleClients(siteOrigin: string): string {
  const json = readFileSync(path.join(exampleDir, 'portal-client.json'), 'utf8');
  if (!json.includes(README_ORIGIN)) {
    throw new Error(`portal-client.json names no ${README_ORIGIN} address`);
  }
  const shown = /```json\n([\s\S]*?)```/.exec(readme())?.[1];
  if (!shown || !isDeepStrictEqual(JSON.parse(shown), JSON.parse(json))) {
    throw new Error('examples/oidc-site/README.md does not show the client of portal-client.json');
  }
  return json.replaceAll(README_ORIGIN, siteOrigin);
}

function readme(): string {
  return readFileSync(path.join(exampleDir, 'README.md'), 'utf8');
}

/** The README's line that starts the site: its settings and its command. */
function readmeCommand(): { env: Record<string, string>; command: string[] } {
  const line = readme()
    .split('\n')
    .find((text) => /\bnpm run example:site\b/.test(text));
  if (!line) throw new Error('examples/oidc-site/README.md shows no `npm run example:site` line');
  const words = line.split('#')[0]!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0]?.includes('=')) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  return { env, command: words };
}

export type ExampleSite = { origin: string; stop(): Promise<void> };

export async function startExampleSite(options: {
  portalUrl: string;
  port: number;
}): Promise<ExampleSite> {
  const origin = `http://127.0.0.1:${options.port}`;
  const { env, command } = readmeCommand();
  if (!env.PORTAL_URL) throw new Error('the README’s command sets no PORTAL_URL');
  const [program, ...args] = command;
  const server = await startChildServer({
    name: 'The example site',
    program: program!,
    args,
    cwd: repoRoot,
    env: {
      ...process.env,
      ...env,
      PORTAL_URL: options.portalUrl,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      SITE_URL: origin,
    },
    readyUrl: origin,
    startTimeoutMs: START_TIMEOUT_MS,
    // npm starts node under a shell: the stop must reach all three.
    isGroup: true,
  });
  return { origin, stop: server.stop };
}
