import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { AccountSearch } from './account-search.js';
import { accountsData } from './data-owner.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** Support's account search (the staff page's and the operator's `find`); payments adds the payment's id to it. */
    accountSearch: AccountSearch;
  }
}

/**
 * The accounts have no routes; their functions take the executor. The plugin says what becomes of
 * the users table (data-owner.ts) and builds the one account search.
 */
export const accountsPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(accountsData);
    app.deps.accountSearch = new AccountSearch();
  },
  { name: 'accounts', dependencies: ['core'] },
);
