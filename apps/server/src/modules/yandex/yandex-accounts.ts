import { randomInt } from 'node:crypto';
import { cleanedName } from '@portal/contracts/common';
import { USERNAME_MAX_LENGTH } from '@portal/contracts/constants';
import type { Clock } from '../../adapters/clock.js';
import type { Db, Tx } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../http/app-error.js';
import {
  emailKey,
  findUserByEmailKey,
  findUserById,
  findUserByYandexId,
  insertUser,
  isUserNameKeyTaken,
  type UserRow,
  unlinkUserYandex,
  updateUser,
  userNameKey,
} from '../accounts/index.js';
import type { EventClient, SecurityLog } from '../security-log/index.js';
import { YANDEX_MESSAGES } from './messages.js';
import type { YandexProfile } from './yandex-profile.js';

export type YandexOutcome =
  | { kind: 'signed-in' | 'created'; user: UserRow }
  | { kind: 'linked'; user: UserRow }
  | { kind: 'refused'; message: string };

class Refused extends Error {}

/**
 * What a Yandex profile means for the portal: link it to the signed-in user who
 * asked, sign in the user it is linked to, or create an account for a new confirmed e-mail.
 * An e-mail that already has an account is never taken over by a Yandex sign-in.
 */
export async function resolveYandexAccount(
  deps: { db: Db; clock: Clock; securityLog: SecurityLog },
  profile: YandexProfile,
  linkToUserId: string | undefined,
  client: EventClient,
): Promise<YandexOutcome> {
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx): Promise<YandexOutcome> => {
      const holder = await findUserByYandexId(tx, profile.id);
      if (linkToUserId) {
        const user = await findUserById(tx, linkToUserId);
        if (!user) throw new Refused(YANDEX_MESSAGES.userGone);
        if (holder && holder.id !== user.id) throw new Refused(YANDEX_MESSAGES.yandexTaken);
        if (user.yandexId && user.yandexId !== profile.id) {
          throw new Refused(YANDEX_MESSAGES.accountHasOtherYandex);
        }
        await updateUser(tx, user.id, { yandexId: profile.id, updatedAt: now });
        if (user.yandexId !== profile.id) {
          await deps.securityLog.record(tx, user.id, 'yandex_linked', client);
        }
        return { kind: 'linked', user };
      }
      if (holder) return { kind: 'signed-in', user: holder };

      const email = profile.default_email?.trim();
      if (!email) throw new Refused(YANDEX_MESSAGES.noEmail);
      if (await findUserByEmailKey(tx, emailKey(email), { forUpdate: true })) {
        throw new Refused(YANDEX_MESSAGES.emailTaken);
      }
      const userName = await freeUserName(tx, profile.login || email.split('@')[0] || 'user');
      const created = await insertUser(tx, {
        email,
        emailKey: emailKey(email),
        userName,
        userNameKey: userNameKey(userName),
        // No password: this account signs in with Yandex ID (or sets one by password reset).
        passwordHash: null,
        // Names from the profile follow the portal's rule for names: nothing invisible.
        firstName:
          cleanedName(profile.first_name ?? '') ||
          cleanedName(profile.display_name ?? '') ||
          userName,
        lastName: cleanedName(profile.last_name ?? ''),
        yandexId: profile.id,
        // Yandex only hands out addresses it has confirmed.
        confirmedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      return { kind: 'created', user: created };
    });
  } catch (error) {
    if (error instanceof Refused) return { kind: 'refused', message: error.message };
    // A concurrent sign-in created or linked the same account first; the next try signs in.
    if (isUniqueViolation(error)) return { kind: 'refused', message: YANDEX_MESSAGES.yandexTaken };
    throw error;
  }
}

/** A username in the registration alphabet from the Yandex login, made unique with digits. */
async function freeUserName(tx: Tx, login: string): Promise<string> {
  let base = login.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, USERNAME_MAX_LENGTH);
  if (base.length < 3) base = `user${base}`.slice(0, USERNAME_MAX_LENGTH);
  for (let attempt = 0; attempt < 10; attempt++) {
    const suffix = attempt === 0 ? '' : String(randomInt(1000, 1_000_000));
    const candidate = `${base.slice(0, USERNAME_MAX_LENGTH - suffix.length)}${suffix}`;
    if (!(await isUserNameKeyTaken(tx, userNameKey(candidate)))) return candidate;
  }
  return `user${randomInt(10_000_000, 100_000_000)}`;
}

/**
 * Unlinks the account's Yandex ID (the route has checked a fresh proof of the owner), refused
 * while it is the account's only way in (made through Yandex ID, no password set since).
 * `yandex_unlinked` in the same transaction.
 */
export async function unlinkYandex(
  deps: { db: Db; clock: Clock; securityLog: SecurityLog },
  userId: string,
  client: EventClient,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const outcome = await unlinkUserYandex(tx, userId, deps.clock.now());
    if (outcome === 'only_way_in') throw new AppError('conflict', YANDEX_MESSAGES.onlyWayIn);
    if (outcome === 'not_linked') throw new AppError('conflict', YANDEX_MESSAGES.notLinked);
    await deps.securityLog.record(tx, userId, 'yandex_unlinked', client);
  });
}
