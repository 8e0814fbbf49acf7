// Staff members for the support desk's tests (modules/staff): a portal account with a role, the
// authenticator (a member needs one) and a session proven by its code.
import { STAFF_API, type StaffRole } from '@portal/contracts/staff';
import { expect } from 'vitest';
import { runAdmin } from '../../src/modules/operator/cli.js';
import type { StaffActor } from '../../src/modules/operator/index.js';
import { totpCode } from '../../src/modules/two-factor/totp.js';
import { nextTotpStep, turnOnAuthenticator } from './auth-helpers.js';
import { createSignedInUser } from './fixtures.js';
import type { TestApp } from './test-app.js';

export { STAFF_API };

/** The command line as an actor (`--operator anna`). */
export function cliActor(reason: string | null = 'тест'): StaffActor {
  return { userId: null, name: 'anna', role: null, reason, ip: null };
}

export interface StaffMemberFixture {
  user: Awaited<ReturnType<typeof createSignedInUser>>['user'];
  headers: Record<string, string>;
  sessionId: string;
  /** The authenticator's secret: `proveStaff` makes a code of it. */
  secret: string;
}

/**
 * A member with `role`, granted as the command line grants the first admin; `isProven`: the
 * session has given the staff proof (the authenticator's code) just now.
 */
export async function createStaffMember(
  t: TestApp,
  role: StaffRole,
  options: { isProven?: boolean } = {},
): Promise<StaffMemberFixture> {
  const { user, headers, sessionId } = await createSignedInUser(t);
  const secret = await turnOnAuthenticator(t, headers);
  await t.app.deps.staff.roles.grant(cliActor('первый сотрудник'), user, role);
  const member = { user, headers, sessionId, secret };
  if (options.isProven ?? true) await proveStaff(t, member);
  return member;
}

/** `POST …/proof` with the authenticator's next code; expects 200. */
export async function proveStaff(
  t: TestApp,
  member: Pick<StaffMemberFixture, 'headers' | 'secret'>,
  extraHeaders: Record<string, string> = {},
) {
  nextTotpStep(t.clock);
  const answer = await t.app.inject({
    method: 'POST',
    url: `${STAFF_API}/proof`,
    headers: { ...member.headers, ...extraHeaders },
    payload: { code: totpCode(member.secret, t.clock.now()) },
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

/** One command line of `npm run admin` in the test's app; expects exit code 0. */
export async function adminCommand({ app }: Pick<TestApp, 'app'>, ...argv: string[]) {
  const err: string[] = [];
  const code = await runAdmin(
    { deps: app.deps, log: app.log, out: () => {}, err: (line) => err.push(line) },
    argv,
  );
  expect(code, err.join('\n')).toBe(0);
}
