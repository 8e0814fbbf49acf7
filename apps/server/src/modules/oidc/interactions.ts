/**
 * The bridge between the provider's sign-in step and the portal's own `/auth`: the provider
 * sends the browser to `/auth?interaction=<uid>` (routes.ts); once the person is signed in there,
 * by every rule of the one sign-in policy, the web app posts its session here and follows the
 * answered URL back into the authorization. The provider's interaction cookie comes along, so
 * only the browser that began the authorization can finish it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InteractionResults } from 'oidc-provider';
import type { Clock } from '../../adapters/clock.js';
import type { Db } from '../../db/database.js';
import type { UserReadCache } from '../../db/user-reads.js';
import { AppError } from '../../http/app-error.js';
import { AccountBlocked, type AuthenticatedSession, type SessionSignIn } from '../auth/index.js';
import { siteAccountOf } from './accounts.js';
import type { LiveProvider } from './live-provider.js';
import { OIDC_MESSAGES } from './messages.js';
import { ACR, type PortalInteractionResult } from './provider.js';

export interface OidcInteractionsDeps {
  provider: Pick<LiveProvider, 'current'>;
  db: Db;
  /** The account is read as the library reads it (accounts.ts), remembered for its next steps. */
  userReads: Pick<UserReadCache, 'read'>;
  clock: Clock;
  /** When the account's deletion is due, or null (modules/account-data). */
  deletionDueAt: (userId: string) => Promise<Date | null>;
  /** The portal session a library session last signed in to a site with (site-sign-ins.ts). */
  portalSessionOf: (providerSessionUid: string) => Promise<string | undefined>;
  supportUrl: string;
}

/** The raw request and answer: the provider reads and writes its cookies on them. */
export interface RawExchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/** Factors beyond the first (RFC 8176 values the sign-in policy records). */
const SECOND_FACTORS: readonly string[] = ['otp', 'hwk', 'mfa'];

/**
 * The ID token's `amr` for the session's sign-in as the sign-in policy kept it on the session
 * (and in its `sign_in` entry of the security log): its values (RFC 8176: `pwd`, `otp`, `hwk`,
 * `mfa`, `email`), except that a sign-in through Yandex ID, `ext` (any other provider), is named
 * `yandex` for the sites: the value the product gives it. A session without one (its sign-in not
 * found when migrations/0815_session_sign_in.sql filled the sessions of before) claims no way
 * and one factor, as the provider answered until then when the log had no entry: a site that
 * wants two factors asks the person to sign in again, never the other way round.
 */
export function amrForSites(signIn: SessionSignIn | null): string[] {
  if (!signIn) return [];
  if (signIn.method !== 'yandex') return signIn.amr;
  return signIn.amr.map((value) => (value === 'ext' ? 'yandex' : value));
}

export class OidcInteractions {
  constructor(private readonly deps: OidcInteractionsDeps) {}

  /**
   * Finishes interaction `uid` with the request's portal session (its start and browser come with
   * it from `requireSession`: no read of its row again): the account and how it
   * signed in become the site's login, the requested scopes its grant. Answers the URL the
   * browser goes to next. Refused: an interaction that is not this browser's or has expired
   * (400), an account that may not sign in (403, as the portal refuses it), a session older than
   * the site allows (409 `sign_in_again`).
   */
  async finishSignIn(
    raw: RawExchange,
    uid: string,
    session: AuthenticatedSession,
  ): Promise<{ url: string }> {
    const interaction = await this.interactionOf(raw, uid);
    await this.assertMayUseSites(session.userId);
    if (!(await this.isFreshEnough(interaction, session))) {
      // The web app ends this session on the refusal, and the library's session of this browser
      // with it (site-sign-ins.ts); the interaction would then refer to a session that is gone
      // (the library's "session not found"), and the sign-in asked for could never finish.
      // Unbound from it, the interaction takes the new sign-in into a new library session.
      if (interaction.session) {
        delete interaction.session;
        await interaction.persist();
      }
      throw new AppError('conflict', OIDC_MESSAGES.signInAgain, { reason: 'sign_in_again' });
    }
    const amr = amrForSites(session.signIn);
    // What the library's `interactionResult` does, on the interaction read above: it would read
    // it again.
    interaction.result = {
      login: {
        accountId: session.userId,
        amr,
        acr: amr.some((value) => SECOND_FACTORS.includes(value)) ? ACR.twoFactors : ACR.oneFactor,
        ts: Math.floor(session.createdAt.getTime() / 1000),
      },
      // First-party: the grant is made without asking (provider.ts `loadExistingGrant`).
      consent: {},
      // The site's sign-in is recorded as a device of this session (site-sign-ins.ts).
      portalSessionId: session.id,
    } satisfies InteractionResults & PortalInteractionResult;
    await interaction.persist();
    return { url: interaction.returnTo };
  }

  private async interactionOf(raw: RawExchange, uid: string) {
    try {
      const interaction = await this.deps.provider.current().interactionDetails(raw.req, raw.res);
      if (interaction.uid === uid) return interaction;
    } catch {
      // No interaction cookie, or its interaction expired: the same answer.
    }
    throw new AppError('invalid_input', OIDC_MESSAGES.interactionGone);
  }

  /** The portal's own refusals: a blocked, unconfirmed or deletion-bound account. */
  private async assertMayUseSites(userId: string) {
    const user = await siteAccountOf(this.deps, userId);
    if (user?.status !== 'active')
      throw new AppError('invalid_input', OIDC_MESSAGES.interactionGone);
    if (user.blockedAt) throw new AccountBlocked(this.deps.supportUrl);
    if (!user.confirmedAt) throw new AppError('forbidden', OIDC_MESSAGES.unconfirmed);
    if (await this.deps.deletionDueAt(userId)) {
      throw new AppError('forbidden', OIDC_MESSAGES.deletionScheduled);
    }
  }

  /**
   * `prompt=login` wants a sign-in made for this authorization, `max_age` one at most that old:
   * an older portal session is refused, and the web app asks the person to sign in again. The
   * interaction's start is known only to the second (`iat`), so under `prompt=login` the session
   * this browser's library session already signed in to a site with is refused too, however
   * recent: it is the sign-in the site asks to repeat.
   */
  private async isFreshEnough(
    interaction: { iat?: number; params: Record<string, unknown>; session?: { uid?: string } },
    session: { id: string; createdAt: Date },
  ): Promise<boolean> {
    const signedInS = session.createdAt.getTime() / 1000;
    const prompts = String(interaction.params.prompt ?? '').split(' ');
    const isLoginPrompted =
      prompts.includes('login') &&
      (signedInS < (interaction.iat ?? 0) ||
        (interaction.session?.uid !== undefined &&
          (await this.deps.portalSessionOf(interaction.session.uid)) === session.id));
    const maxAge = Number(interaction.params.max_age);
    const nowS = this.deps.clock.now().getTime() / 1000;
    const isTooOld = Number.isFinite(maxAge) && nowS - signedInS > maxAge;
    return !isLoginPrompted && !isTooOld;
  }
}
