import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { notFound } from '../../http/app-error.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Operator calls answer only a process on this machine talking to the port directly: the socket
 * comes from loopback and no proxy forwarded it (a reverse proxy on the same machine adds
 * X-Forwarded-For or Forwarded). Anyone else gets 404, as if there were nothing here.
 */
export function isLocalOperator(request: FastifyRequest): boolean {
  const headers = request.headers;
  return (
    LOOPBACK.has(request.socket.remoteAddress ?? '') &&
    headers['x-forwarded-for'] === undefined &&
    headers.forwarded === undefined
  );
}

/** `GET /ops/backup`: the embedded database as a consistent gzipped tar (npm run backup). */
export const opsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/ops/backup', { schema: { hide: true } }, async (request, reply) => {
    if (!isLocalOperator(request)) throw notFound();
    const snapshot = await app.deps.database.snapshot();
    if (!snapshot) throw notFound();
    return reply
      .type('application/gzip')
      .header('cache-control', 'no-store')
      .send(Buffer.from(await snapshot.arrayBuffer()));
  });
};
