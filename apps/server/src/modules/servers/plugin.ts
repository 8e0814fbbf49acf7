import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
import { serversData } from './data-owner.js';
import { OrderCancels } from './order-cancel.js';
import { Orders } from './orders.js';
import { Renewals } from './renewal.js';
import { serviceRoutes } from './routes.js';
import { SIBLING_PREFIX, siblingRoutes } from './sibling-routes.js';

export interface ServersDeps {
  /** A sibling's order paid from the wallet (its POST /orders). */
  orders: Orders;
  /** A sibling's cancel of one of its orders (its POST /orders/:orderId/cancel). */
  orderCancels: OrderCancels;
  /** The auto-renewal of the services whose period has ended. */
  renewals: Renewals;
}

declare module '../../deps.js' {
  interface AppDeps {
    servers: ServersDeps;
  }
}

/** Services, the catalogue, the sibling API and the auto-renewal job. */
export const serversPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(serversData);
    const renewals = new Renewals(app.deps);
    app.deps.servers = {
      orders: new Orders(app.deps),
      orderCancels: new OrderCancels(app.deps),
      renewals,
    };
    await app.register(serviceRoutes);
    await app.register(siblingRoutes, { prefix: SIBLING_PREFIX });
    const interval = app.deps.config.SERVICE_RENEWAL_INTERVAL_SECONDS;
    schedulePeriodicJob(app, 'service auto-renewal', interval, () => renewals.renewDue(app.log));
  },
  { name: 'servers', dependencies: ['core'] },
);
