import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
import { serversData } from './data-owner.js';
import { renewDueServices } from './renewal.js';
import { serviceRoutes } from './routes.js';
import { SIBLING_PREFIX, siblingRoutes } from './sibling-routes.js';

/** Services, the catalogue, the sibling API and the auto-renewal job. */
export const serversPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(serversData);
    await app.register(serviceRoutes);
    await app.register(siblingRoutes, { prefix: SIBLING_PREFIX });
    schedulePeriodicJob(
      app,
      'service auto-renewal',
      app.deps.config.SERVICE_RENEWAL_INTERVAL_SECONDS,
      () => renewDueServices(app.deps, app.log),
    );
  },
  { name: 'servers', dependencies: ['core'] },
);
