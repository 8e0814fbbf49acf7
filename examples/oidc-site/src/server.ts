/** Starts the site: `npm start` here, or `npm run example:site` at the portal's root. */
import { createServer } from 'node:http';
import { ConfigError, readConfig } from './config.ts';
import { createPortalSignIn } from './portal-sign-in.ts';
import { createSessionStore } from './sessions.ts';
import { createSite } from './site.ts';

let config: ReturnType<typeof readConfig>;
try {
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const handle = createSite({
  config,
  sessions: createSessionStore(),
  portal: createPortalSignIn(config),
});
const server = createServer((request, response) => void handle(request, response));
server.listen(config.port, config.host, () => {
  console.info(`Сайт-пример: ${config.siteUrl.origin}, вход через ${config.portalUrl.origin}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
