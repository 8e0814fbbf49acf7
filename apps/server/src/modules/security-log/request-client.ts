import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** The browser an event came from: its user agent and address. */
export interface EventClient {
  userAgent: string;
  ipAddress: string;
}

/** For what the owner did elsewhere (in the Telegram bot): no browser, no address of theirs. */
export const NO_CLIENT: EventClient = { userAgent: '', ipAddress: '' };

const current = new AsyncLocalStorage<EventClient>();

/**
 * Runs every request's handler with its browser at hand, so a service deep in another module
 * (a recovery code spent inside the password change, say) logs the event with the right device
 * and address without each call passing them along. Entered at `preHandler`: by then the body has
 * been read (reading it runs in the socket's context, not the request's).
 */
export function rememberRequestClients(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    current.run(
      { userAgent: (request.headers['user-agent'] ?? '').slice(0, 512), ipAddress: request.ip },
      done,
    );
  });
}

/** The browser of the request being answered; nothing for work outside a request (the bot, jobs). */
export function currentClient(): EventClient {
  return current.getStore() ?? NO_CLIENT;
}
