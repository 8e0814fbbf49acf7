import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../payments/plugin.js';
import { operatorData } from './data-owner.js';
import { StaffMoney } from './money-service.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** Staff money (money-service.ts): the command line's and the staff pages' one service. */
    staffMoney: StaffMoney;
  }
}

/**
 * The operator's tool is a command line (cli.ts), not a part of the server; this plugin says what
 * becomes of its tables (data-owner.ts) and builds the staff money service both the tool and the
 * staff pages call.
 */
export const operatorPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(operatorData);
    const { config, db, clock, payments } = app.deps;
    app.deps.staffMoney = new StaffMoney({
      config,
      db,
      clock,
      refunds: payments.refunds,
      reconciliation: payments.reconciliation,
      log: app.log,
    });
  },
  { name: 'operator', dependencies: ['core', 'payments'] },
);
