import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { PortalMetrics } from './portal-metrics.js';
import { metricsRoute, timeRequests } from './routes.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** Prometheus metrics of this app; services report to it through their listeners. */
    metrics: PortalMetrics;
  }
}

/**
 * Builds the app's metrics, times every request and serves `GET /metrics`. Registered before
 * any module's routes (app.ts), so the request hook sees them all; the modules registered after
 * it hook their own counters in (sign-ins and locks in auth, reconciliation in payments).
 */
export const metricsPlugin = fp(
  async (app) => {
    const { database, clock, redis, sessions, config } = app.deps;
    const metrics = new PortalMetrics({
      database,
      clock,
      log: app.log.child({ module: 'metrics' }),
      ...(redis && { redisUp: () => redis.isUp() }),
    });
    app.deps.metrics = metrics;
    sessions.onCacheLookup(metrics.countSessionLookup);
    timeRequests(app, metrics);
    metricsRoute(app, metrics, config.METRICS_TOKEN);
  },
  { name: 'metrics', dependencies: ['core'] },
);
