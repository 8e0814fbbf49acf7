import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
import { purgeExpired } from './purge.js';

/** Spent codes, old letters and ended sessions are purged this often. */
const HOUSEKEEPING_EVERY_S = 60 * 60;

/** The hourly purge of what has expired (purge.ts says what and how long it is kept). */
export const housekeepingPlugin = fp(
  async (app) => {
    const { db, clock } = app.deps;
    schedulePeriodicJob(app, 'housekeeping', HOUSEKEEPING_EVERY_S, () =>
      purgeExpired(db, clock.now()),
    );
  },
  { name: 'housekeeping', dependencies: ['core'] },
);
