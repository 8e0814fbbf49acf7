import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../auth/plugin.js';
import type {} from '../security-log/plugin.js';
import type {} from '../two-factor/plugin.js';
import { accountDataData } from './data-owner.js';
import { DeletionService } from './deletion-service.js';
import { eraseDueAccounts } from './erasure.js';
import { AccountExport } from './export-service.js';
import { accountDataRoutes } from './routes.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** «Удалить аккаунт»: scheduling, cancelling, and `eraseDue` for the housekeeping job. */
    accountDeletion: DeletionService & { eraseDue(): Promise<number> };
    /** «Скачать мои данные»: the file of the account's data. */
    accountExport: AccountExport;
  }
}

/**
 * «Скачать мои данные» and «Удалить аккаунт». Its sign-in hook cancels a waiting deletion in
 * every portal sign-in's transaction; the housekeeping job erases the accounts that are due.
 */
export const accountDataPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(accountDataData);
    const { db, clock, dataOwners, signInPolicy } = app.deps;
    const service = new DeletionService(app.deps);
    app.deps.accountDeletion = Object.assign(service, {
      eraseDue: () => eraseDueAccounts({ db, clock, dataOwners, log: app.log }),
    });
    app.deps.accountExport = new AccountExport(app.deps);
    signInPolicy.onSignIn((session, executor) => service.onSignIn(session, executor));
    await app.register(accountDataRoutes);
  },
  {
    name: 'account-data',
    dependencies: ['core', 'security-log', 'two-factor', 'auth', 'payments', 'servers'],
  },
);
