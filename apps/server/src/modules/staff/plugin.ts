import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type {} from '../../core-plugin.js';
import type {} from '../account-data/plugin.js';
import type {} from '../accounts/plugin.js';
import type {} from '../auth/plugin.js';
import type { StaffMoney } from '../operator/index.js';
import type {} from '../operator/plugin.js';
import type {} from '../passkeys/plugin.js';
import type {} from '../security-log/plugin.js';
import type {} from '../two-factor/plugin.js';
import { SupportAccessService } from './access-service.js';
import { staffAccountRoutes } from './account-routes.js';
import { StaffAccountService } from './account-service.js';
import { staffAdminRoutes } from './admin-routes.js';
import { StaffAuditService } from './audit-service.js';
import { staffData } from './data-owner.js';
import { StaffGuard } from './guard.js';
import { LetterResendService } from './letter-service.js';
import { staffMoneyRoutes } from './money-routes.js';
import { staffProofRoutes } from './proof-routes.js';
import { StaffProofService } from './proof-service.js';
import { StaffRoleService } from './role-service.js';

/** The support desk's services, which the command line (modules/operator) calls too. */
export interface StaffServices {
  access: SupportAccessService;
  letters: LetterResendService;
  roles: StaffRoleService;
}

declare module '../../deps.js' {
  interface AppDeps {
    /** Support's actions, one service each for the pages and the command line alike. */
    staff: StaffServices;
  }
}

const staffRoutes: FastifyPluginAsyncZod<{
  guard: StaffGuard;
  services: StaffServices;
  accounts: StaffAccountService;
  proofs: StaffProofService;
  audit: StaffAuditService;
  money: StaffMoney;
}> = async (app, { guard, services, accounts, proofs, audit, money }) => {
  await app.register(staffProofRoutes, { guard, proofs });
  await app.register(staffAccountRoutes, { guard, accounts, ...services });
  await app.register(staffMoneyRoutes, { guard, accounts, money });
  await app.register(staffAdminRoutes, { guard, accounts, audit, roles: services.roles });
};

/**
 * The support desk: staff roles, the guard of every staff call, the staff's own proof, and one
 * service per action. Registered after account-data (an account's page shows its deletion), the
 * factor modules (a member proves themselves with one) and operator (its staff money service,
 * which the money calls share with the command line).
 */
export const staffPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(staffData);
    const roles = new StaffRoleService(app.deps);
    const services: StaffServices = {
      access: new SupportAccessService(app.deps),
      letters: new LetterResendService(app.deps),
      roles,
    };
    app.deps.staff = services;
    await app.register(staffRoutes, {
      guard: new StaffGuard(app.deps),
      services,
      accounts: new StaffAccountService({ ...app.deps, roles }),
      proofs: new StaffProofService(app.deps),
      audit: new StaffAuditService(app.deps),
      money: app.deps.staffMoney,
    });
  },
  {
    name: 'staff',
    dependencies: [
      'core',
      'accounts',
      'auth',
      'security-log',
      'two-factor',
      'passkeys',
      'account-data',
      'operator',
    ],
  },
);
