import { STAFF_API, type StaffRole } from '@portal/contracts/staff';
import type { Page } from 'playwright-core';
import { enableAuthenticator, postJson, totpCode } from './auth-helpers';
import { newSignedInAccount, type PortalWithSmtp, type SignedInAccount } from './fixtures';
import type { Portal } from './portal';

/** An account that may become staff: signed in, with the authenticator a member needs. */
export type StaffCandidate = SignedInAccount & {
  /** The authenticator's secret (`totpCode(secret)` is what the app shows now). */
  secret: string;
  /** Unused recovery codes: each proves the member once through the API (see proveStaff). */
  recoveryCodes: string[];
};

/** A new account with the authenticator on, ready for a role (the server refuses one without). */
export async function newStaffCandidate(world: PortalWithSmtp): Promise<StaffCandidate> {
  const account = await newSignedInAccount(world);
  const { secret, recoveryCodes } = await enableAuthenticator(world.portal.baseUrl, account);
  return { ...account, secret, recoveryCodes };
}

/**
 * Names a member from the command line, as the first admin is named:
 * `npm run admin -- staff grant <e-mail> --role … --operator … --reason …` (the portal stops and
 * starts again on the embedded database, see Portal.admin).
 */
export function grantFromCommandLine(
  portal: Portal,
  account: { email: string },
  role: StaffRole,
): Promise<string> {
  return portal.admin([
    'staff',
    'grant',
    account.email,
    '--role',
    role,
    '--operator',
    'e2e-setup',
    '--reason',
    'первый сотрудник',
  ]);
}

/**
 * The staff proof of the member's session through the API, by one of its recovery codes (the
 * authenticator's codes are kept for the browser: the server never takes one step twice).
 * The page holding the same token is proven too: the proof belongs to the session.
 */
export async function proveStaff(baseUrl: string, member: StaffCandidate): Promise<void> {
  const code = member.recoveryCodes.shift();
  if (!code) throw new Error('proveStaff(): the member has no recovery codes left');
  await postJson(`${baseUrl}${STAFF_API}/proof`, { code }, member.token);
}

/** An admin (proven) grants `role` to `account` through the staff API, as /staff/roles does. */
export async function grantByAdmin(
  baseUrl: string,
  admin: StaffCandidate,
  account: { email: string },
  role: StaffRole,
): Promise<void> {
  await postJson(
    `${baseUrl}${STAFF_API}/roles`,
    { email: account.email, role, reason: 'e2e: сотрудник для теста' },
    admin.token,
  );
}

/** A member `newCustomerAndStaff` makes: the role it gets, and whether the API proves it. */
export type StaffMember = {
  role: StaffRole;
  /** Proven through the API (see proveStaff): its pages open without the step-up dialog. */
  proven: boolean;
};

/**
 * A customer and the members a test file needs, each with the authenticator on. The first member
 * listed is named from the command line (which restarts the portal, see grantFromCommandLine);
 * every other one is granted its role by that first one, which must then be a proven admin.
 */
export async function newCustomerAndStaff<Name extends string>(
  world: PortalWithSmtp,
  members: Record<Name, StaffMember>,
): Promise<{ customer: SignedInAccount } & Record<Name, StaffCandidate>> {
  const customer = await newSignedInAccount(world);
  const names = Object.keys(members) as Name[];
  const staff = {} as Record<Name, StaffCandidate>;
  for (const name of names) staff[name] = await newStaffCandidate(world);
  const first = staff[names[0] as Name];
  for (const name of names) {
    const { role, proven } = members[name];
    if (staff[name] === first) await grantFromCommandLine(world.portal, first, role);
    else await grantByAdmin(world.portal.baseUrl, first, staff[name], role);
    if (proven) await proveStaff(world.portal.baseUrl, staff[name]);
  }
  return { customer, ...staff };
}

/** The authenticator's code one step on: accepted (±1 step) and never a step used a moment ago. */
export const nextTotpCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

/** The step-up dialog of the staff area, answered with the authenticator's code. */
export async function answerProofDialog(page: Page, secret: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Подтвердите, что это вы' });
  await dialog.waitFor();
  await dialog.getByLabel('Код из приложения-аутентификатора').fill(nextTotpCode(secret));
  await dialog.waitFor({ state: 'hidden' });
}

/** What a staff call from inside `page` answers (its status), with the page's own token. */
export function staffStatusFromPage(page: Page, path: string): Promise<number> {
  return page.evaluate(
    async ({ url }) => {
      const token = localStorage.getItem('access_token');
      const response = await fetch(url, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      return response.status;
    },
    { url: `${STAFF_API}${path}` },
  );
}

/** The heading of the app's page for an unknown address. */
export const NOT_FOUND_HEADING = 'Упс! Кажется, вы попали на несуществующую страницу';
