/**
 * Yandex ID, implicit flow (module README): `start` begins a flow (its id in an HttpOnly cookie,
 * its hash in the signed state); Yandex returns the browser to the portal's /oauth, which forwards
 * the fragment to the callback; `callback` spends the state, reads the profile and sends the
 * browser to /auth with a one-time code, never a session token; `exchange` turns the code into a
 * session, only in the browser holding the flow cookie. The routes (routes.ts) own the cookie
 * itself and hand it over as a `FlowCookie`.
 */
import { CODE_WRONG, PORTAL_ONLY, YANDEX_SIGN_IN_CODE_REFUSED } from '@portal/contracts/messages';
import type { YandexCallbackQuery, YandexExchangeRequest } from '@portal/contracts/yandex';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { AppError, invalidInput } from '../../http/app-error.js';
import { LoginRefused, type SessionStore, type SignInPolicy } from '../auth/index.js';
import type { EventClient, SecurityLog } from '../security-log/index.js';
import { YANDEX_MESSAGES } from './messages.js';
import { createState, readState, STATE_TTL_MS } from './oauth-state.js';
import {
  flowHashOf,
  issueSignInCode,
  newFlow,
  SECOND_FACTOR_SIGN_IN_CODE_TTL_MS,
  SIGN_IN_CODE_TTL_MS,
  signInCodeOwner,
  spendSignInCode,
  spendState,
} from './sign-in-flows.js';
import { resolveYandexAccount } from './yandex-accounts.js';
import { fetchYandexProfile, YandexUnavailable } from './yandex-profile.js';

/** The browser's flow cookie: its value (undefined: none), and how to set it (Max-Age 0 clears). */
export interface FlowCookie {
  id: string | undefined;
  set(value: string, maxAgeSeconds: number): void;
}

type Session = NonNullable<Awaited<ReturnType<SessionStore['authenticate']>>>;

export interface YandexSignInDeps {
  config: Config;
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  signInPolicy: SignInPolicy;
  securityLog: SecurityLog;
}

export class YandexSignIn {
  constructor(private readonly deps: YandexSignInDeps) {}

  /** A portal address with its query. */
  private portal(path: string, params: Record<string, string>): string {
    const url = new URL(path, this.deps.config.PUBLIC_URL);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  }

  /**
   * The address of Yandex's sign-in page for a new flow. Signed in (`token`), the flow links
   * Yandex ID to this user instead of signing in: portal sessions only, freshly proven
   * (`assertProven`).
   */
  async start(
    token: string | null,
    flow: FlowCookie,
    assertProven: (session: Session) => Promise<void>,
  ): Promise<string> {
    const { config, clock, sessions } = this.deps;
    const session = token ? await sessions.authenticate(token) : null;
    // Linking is portal-only: a sibling site's session may not link an account to the user.
    if (session?.siblingOrigin) throw new AppError('forbidden', PORTAL_ONLY);
    if (!config.YANDEX_CLIENT_ID) throw new AppError('unavailable', YANDEX_MESSAGES.notConfigured);
    // Linking adds a way into the account: only a session that has just proved its owner.
    if (session) await assertProven(session);
    const { flowId, flowHash } = newFlow();
    const state = createState(config.SECRET_KEY, clock.now(), flowHash, session?.userId);

    const url = new URL(config.YANDEX_AUTHORIZE_URL);
    url.searchParams.set('response_type', 'token');
    url.searchParams.set('client_id', config.YANDEX_CLIENT_ID);
    url.searchParams.set('redirect_uri', new URL('/oauth', config.PUBLIC_URL).toString());
    url.searchParams.set('state', state);
    flow.set(flowId, STATE_TTL_MS / 1000);
    return url.toString();
  }

  /**
   * Yandex's answer: where to send the browser. Every outcome, a refusal too, is an address on
   * /auth (a one-time code or an error) or /profile (linked, or why not).
   */
  async callback(
    query: YandexCallbackQuery,
    flow: FlowCookie,
    client: EventClient,
    log: FastifyBaseLogger,
  ): Promise<string> {
    const { config, db, clock, securityLog, signInPolicy } = this.deps;
    const now = clock.now();
    const state = query.state ? readState(config.SECRET_KEY, query.state, now) : null;
    const back = state?.userId ? '/profile' : '/auth';
    const fail = (message: string) => {
      flow.set('', 0);
      return this.portal(back, { yandexError: message });
    };

    const flowId = flow.id;
    if (!state || !flowId || flowHashOf(flowId) !== state.flowHash) {
      return fail(YANDEX_MESSAGES.stale);
    }
    // From here on this state is used up, whatever the outcome.
    if (!(await spendState(db, state.flowHash, new Date(state.expiresAt), now))) {
      return fail(YANDEX_MESSAGES.stale);
    }
    if (query.error || !query.access_token) return fail(YANDEX_MESSAGES.cancelled);
    if (!config.YANDEX_CLIENT_ID) return fail(YANDEX_MESSAGES.notConfigured);

    let profile: Awaited<ReturnType<typeof fetchYandexProfile>>;
    try {
      profile = await fetchYandexProfile(config.YANDEX_USERINFO_URL, query.access_token);
    } catch (error) {
      if (!(error instanceof YandexUnavailable)) throw error;
      log.warn({ err: error }, 'yandex user-info failed');
      return fail(YANDEX_MESSAGES.providerFailed);
    }
    // A token issued to another application must not sign anyone in here.
    if (profile.client_id !== config.YANDEX_CLIENT_ID) return fail(YANDEX_MESSAGES.providerFailed);

    const outcome = await resolveYandexAccount(
      { db, clock, securityLog },
      profile,
      state.userId,
      client,
    );
    if (outcome.kind === 'refused') return fail(outcome.message);
    if (outcome.kind === 'linked') {
      flow.set('', 0);
      return this.portal('/profile', { yandexLinked: '1' });
    }
    // Not a session token: a code that only this browser (its flow cookie) can exchange, once.
    // When the sign-in policy will ask a second step, the code waits for it, so it lives longer.
    const ttlMs =
      (await signInPolicy.secondStepOf(outcome.user.id, 'yandex')) === 'none'
        ? SIGN_IN_CODE_TTL_MS
        : SECOND_FACTOR_SIGN_IN_CODE_TTL_MS;
    const code = await issueSignInCode(db, state.flowHash, outcome.user.id, now, ttlMs);
    flow.set(flowId, ttlMs / 1000);
    return this.portal('/auth', { yandexCode: code });
  }

  /**
   * The one-time code of the callback, exchanged in the browser holding the flow cookie: a
   * session, or the second step the sign-in policy asks (the flow waits for it).
   */
  async exchange(request: YandexExchangeRequest, flow: FlowCookie, client: EventClient) {
    const { db, clock, signInPolicy } = this.deps;
    const refused = () => {
      flow.set('', 0);
      return invalidInput(YANDEX_SIGN_IN_CODE_REFUSED, { code: [YANDEX_SIGN_IN_CODE_REFUSED] });
    };
    const flowId = flow.id;
    const { code, twoFactorCode, passkey } = request;
    const userId = flowId ? await signInCodeOwner(db, { code, flowId }, clock.now()) : null;
    if (!flowId || !userId) throw refused();

    // Yandex stands in for the password: the sign-in policy asks what the password sign-in
    // asks (the authenticator's code, or a passkey), counted in the account's lock, and the
    // flow (code and cookie) waits meanwhile. The flow ends in the session's transaction.
    let result: Awaited<ReturnType<typeof signInPolicy.signIn>>;
    try {
      result = await signInPolicy.signIn({
        userId,
        way: 'yandex',
        client,
        secondStep: { twoFactorCode, passkey },
        inTransaction: async (tx) => {
          if ((await spendSignInCode(tx, { code, flowId }, clock.now())) !== userId) {
            throw refused();
          }
        },
      });
    } catch (error) {
      // A wrong second factor is a field of this form, as it always was.
      if (error instanceof LoginRefused && error.outcome === 'wrong_second_factor') {
        const field = error.message === CODE_WRONG ? 'twoFactorCode' : 'passkey';
        throw invalidInput(error.message, { [field]: [error.message] });
      }
      throw error;
    }
    if (result.status === 'second_step') return result.answer;
    flow.set('', 0);
    return { token: result.token, userId };
  }
}
