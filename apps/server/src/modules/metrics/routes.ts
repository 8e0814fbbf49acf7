import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { isLocalOperator } from '../ops/index.js';
import type { PortalMetrics } from './portal-metrics.js';

export const METRICS_PATH = '/metrics';
export const METRICS_LOCAL_ONLY = 'Метрики доступны только с этого сервера или по токену';
export const METRICS_TOKEN_WRONG = 'Неверный токен метрик';

/** Route label of requests no route answered (404s): one series, whatever the URL was. */
const UNMATCHED_ROUTE = 'unmatched';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may scrape: a process on this machine talking to the port directly (as `GET /ops/backup`),
 * or anyone showing `Authorization: Bearer <METRICS_TOKEN>`. The token is compared by digest in
 * constant time, so the answer's timing says nothing about how much of it was right.
 */
function checkScraper(request: FastifyRequest, token: string | undefined): void {
  if (isLocalOperator(request)) return;
  if (!token) throw new AppError('forbidden', METRICS_LOCAL_ONLY);
  const given = /^Bearer\s+(\S+)$/.exec(request.headers.authorization?.trim() ?? '')?.[1];
  if (!given || !timingSafeEqual(digest(given), digest(token))) {
    throw new AppError('unauthorized', METRICS_TOKEN_WRONG);
  }
}

/** Observes every answered request under its route pattern (bench/bare-server.ts measures it). */
export function timeRequests(app: FastifyInstance, metrics: PortalMetrics): void {
  // A callback hook, not an async one: no promise per request on the hottest path.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/** `GET /metrics`: the exposition, for a scraper `checkScraper` lets in. */
export function metricsRoute(app: FastifyInstance, metrics: PortalMetrics, token?: string): void {
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    checkScraper(request, token);
    const text = await metrics.exposition();
    return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
