import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
import type {} from '../account-data/plugin.js';
import { purgeExpired } from './purge.js';

/** Spent codes, old letters and ended sessions are purged this often. */
const HOUSEKEEPING_EVERY_S = 60 * 60;

/**
 * The hourly purge of what has expired (each table's owner says what and for how long,
 * purge.ts runs them), and the erasure of the accounts whose deletion is due (modules/account-data/erasure.ts).
 */
export const housekeepingPlugin = fp(
  async (app) => {
    const { db, clock, accountDeletion, dataOwners } = app.deps;
    schedulePeriodicJob(app, 'housekeeping', HOUSEKEEPING_EVERY_S, async () => ({
      erasedAccounts: await accountDeletion.eraseDue(),
      purged: await purgeExpired(dataOwners, db, clock.now()),
    }));
  },
  { name: 'housekeeping', dependencies: ['core', 'account-data'] },
);
