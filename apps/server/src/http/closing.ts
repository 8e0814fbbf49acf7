import type { Socket } from 'node:net';
import { SERVICE_UNAVAILABLE } from '@portal/contracts/messages';
import type { FastifyInstance } from 'fastify';

/**
 * A prompt, clean stop. When the app begins to close:
 * - connections with no request in flight are closed at once: Node's own idle check skips a
 *   connection that has not sent its first request yet (browsers open such spare connections),
 *   and one of those would hold the stop until the grace period ends;
 * - requests in flight finish, and their answers say `Connection: close`;
 * - a request that still arrives on an open connection gets the Russian 503 with
 *   `Connection: close` (Fastify's own answer here is English; `return503OnClosing` is off in
 *   app.ts).
 */
export function registerClosingAnswer(app: FastifyInstance): void {
  let isClosing = false;
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  app.addHook('preClose', async () => {
    isClosing = true;
    for (const socket of sockets) {
      // Node attaches the response of the request in flight to its socket until it is sent.
      if (!(socket as Socket & { _httpMessage?: unknown })._httpMessage) socket.destroy();
    }
  });
  // Callback hooks, not async ones: no promise per request on the hottest path.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!isClosing) return done();
    reply.code(503).send({ message: SERVICE_UNAVAILABLE });
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isClosing) reply.header('connection', 'close');
    done(null, payload);
  });
}
