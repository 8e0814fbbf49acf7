/**
 * The portal's OpenID Provider: oidc-provider (OpenID Certified), configured here and nowhere
 * else; the portal writes no protocol code of its own. Issuer = PUBLIC_URL; every endpoint of
 * the library lives under `/oidc` (OIDC_PREFIX) so none meets the web app's pages (its `/auth`
 * especially), and discovery answers at PUBLIC_URL/.well-known/openid-configuration.
 */
import Provider, { type Configuration, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../../adapters/clock.js';
import { type Config, ConfigError, type OidcClientSetting } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { UserReadCache } from '../../db/user-reads.js';
import { isLocalPortal } from '../../local-portal.js';
import { deriveKey } from '../two-factor/index.js';
import { findAccount } from './accounts.js';
import { OidcModelStore } from './adapter.js';
import {
  logoutSource,
  postLogoutSuccessSource,
  successSource,
  USER_CODE,
  userCodeConfirmSource,
  userCodeInputSource,
} from './pages.js';
import type { SiteSignIns } from './site-sign-ins.js';

export const OIDC_PREFIX = '/oidc';
const DAY_S = 24 * 60 * 60;
/** The library's endpoints; any other address under OIDC_PREFIX is the portal's 404. */
export const LIBRARY_ROUTES = {
  authorization: `${OIDC_PREFIX}/auth`,
  code_verification: `${OIDC_PREFIX}/device`,
  device_authorization: `${OIDC_PREFIX}/device/auth`,
  end_session: `${OIDC_PREFIX}/session/end`,
  introspection: `${OIDC_PREFIX}/token/introspection`,
  jwks: `${OIDC_PREFIX}/jwks`,
  revocation: `${OIDC_PREFIX}/token/revocation`,
  token: `${OIDC_PREFIX}/token`,
  userinfo: `${OIDC_PREFIX}/me`,
  // Not enabled, but every route needs a place.
  backchannel_authentication: `${OIDC_PREFIX}/backchannel`,
  challenge: `${OIDC_PREFIX}/challenge`,
  pushed_authorization_request: `${OIDC_PREFIX}/request`,
  registration: `${OIDC_PREFIX}/reg`,
};

/** Where the library sends the browser to sign in; modules/oidc/routes.ts forwards it to /auth. */
export const INTERACTION_PATH = `${OIDC_PREFIX}/interaction`;

/**
 * Lifetimes, in seconds. Access tokens are short: a site learns of a sign-out at its next
 * refresh. A refresh token, its grant and the provider's session live as long as a remembered
 * portal session (modules/auth/sessions.ts); an interaction as long as a sign-in with its codes
 * may take.
 */
const TTL = {
  AccessToken: 10 * 60,
  AuthorizationCode: 60,
  DeviceCode: 10 * 60,
  IdToken: 60 * 60,
  Interaction: 60 * 60,
  RefreshToken: 30 * DAY_S,
  Grant: 30 * DAY_S,
  Session: 30 * DAY_S,
} as const;

/**
 * The longest life of a token signed with the provider's keys: the ID token (access and refresh
 * tokens are opaque, kept in `oidc_models`). A key that stopped signing stays published this
 * long (signing-keys.ts).
 */
export const SIGNED_TOKEN_TTL_S = TTL.IdToken;

/** How the person proved themselves, as the ID token's `acr`: one factor or two. */
export const ACR = { oneFactor: 'urn:portal:acr:1fa', twoFactors: 'urn:portal:acr:2fa' } as const;

export interface OidcProviderDeps {
  config: Pick<Config, 'PUBLIC_URL' | 'SECRET_KEY' | 'OIDC_CLIENTS'>;
  db: Db;
  clock: Clock;
  /** The account's reads for the claims, remembered per process (accounts.ts). */
  userReads: Pick<UserReadCache, 'read'>;
  signingKeys: JWK[];
  /** Each authorization's grant is recorded as a site sign-in of a portal session. */
  siteSignIns: SiteSignIns;
}

/** What the interaction's result carries besides the login (interactions.ts). */
export interface PortalInteractionResult {
  /** The portal session that finished the sign-in: the site's sign-in is a device of it. */
  portalSessionId?: string;
}

export function createOidcProvider(deps: OidcProviderDeps): Provider {
  const { config, db, clock } = deps;
  const configuration: Configuration = {
    adapter: (kind: string) => new OidcModelStore({ db, clock, kind }),
    clients: config.OIDC_CLIENTS.map(clientMetadata),
    jwks: { keys: deps.signingKeys },
    // Signed with keys derived from SECRET_KEY, so every process reads the others' cookies.
    cookies: {
      keys: [deriveKey(config.SECRET_KEY, 'oidc-cookies:v1').toString('base64url')],
      long: { secure: isHttps(config.PUBLIC_URL) },
      short: { secure: isHttps(config.PUBLIC_URL) },
    },
    findAccount: (_ctx, sub) =>
      findAccount({ db, userReads: deps.userReads, publicUrl: config.PUBLIC_URL }, sub),
    claims: {
      sid: null,
      iss: null,
      // Every ID token says how and when the person signed in, not only when a client asks.
      openid: ['sub', 'acr', 'amr', 'auth_time'],
      profile: ['preferred_username', 'name', 'given_name', 'family_name', 'picture'],
      email: ['email', 'email_verified'],
    },
    acrValues: [ACR.oneFactor, ACR.twoFactors],
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    routes: LIBRARY_ROUTES,
    features: {
      devInteractions: { enabled: false },
      // RFC 8628 for a launcher or console without a browser: the person confirms on the
      // portal's Russian pages (pages.ts) and signs in through the same /auth bridge.
      deviceFlow: {
        enabled: true,
        ...USER_CODE,
        userCodeInputSource,
        userCodeConfirmSource,
        successSource,
      },
      introspection: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      // The library makes, signs and posts the logout token; the outbox retries it (backchannel.ts).
      backchannelLogout: { enabled: true },
    },
    // The library keeps its requests off special-use addresses (loopback, private networks). A
    // portal reached only on this machine may tell a site on this machine (a developer's, the
    // tests') of a logout; any other portal keeps the library's guard.
    ...(isLocalPortal(config.PUBLIC_URL) ? { fetch: fetchAllowingLoopback } : {}),
    ttl: TTL,
    // Every client is the brand's own: PKCE (S256, the only method the library knows) always.
    pkce: { required: () => true },
    // First-party: what a client asks for is granted, with no consent screen.
    loadExistingGrant: (ctx) => grantRequestedScopes(ctx, deps.siteSignIns),
    // A refresh token is used once; the library revokes the grant when a used one comes back.
    rotateRefreshToken: () => true,
    // First-party: a client that declares the refresh_token grant gets a refresh token with its
    // code, without `prompt=consent` (the library drops `offline_access` without it, as OpenID
    // Connect asks of a third party). Without `offline_access` kept in the scope, the token ends
    // with the provider's session (the library's `expiresWithSession`).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    renderError: (ctx, out) => {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = out;
    },
  };
  const provider = new Provider(config.PUBLIC_URL, configuration);
  // The portal decides who the client is (TRUSTED_PROXIES) and which address it was reached at
  // (PUBLIC_URL); routes.ts hands both over in X-Forwarded-* headers it writes itself.
  provider.proxy = true;
  endGrantsOnSiteLogout(provider, deps.siteSignIns);
  restartCodeEntryWithoutSession(provider);
  return provider;
}

/**
 * The device flow's code page posted without a session of the library's (no cookie: cleared,
 * expired, or a form from elsewhere): the library answers the refusal with a fresh form whose
 * new session it then fails to save (a TypeError, a 500 with no page). The person is sent to the
 * code page afresh instead, which starts a session and asks for the code again.
 */
function restartCodeEntryWithoutSession(provider: Provider) {
  provider.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const isUnsavedSession =
        error instanceof TypeError && /previously persisted Sessions/.test(error.message);
      if (!isUnsavedSession || ctx.oidc?.route !== 'code_verification') throw error;
      ctx.status = 303;
      ctx.redirect(ctx.oidc.urlFor('code_verification'));
    }
  });
}

/**
 * A site's own logout ends the grants the library keeps (those with `offline_access`) before the
 * browser is answered: the library names the logout in its `end_session.success` event, and the
 * middleware around the request ends the site sign-ins once the library is done with it.
 */
function endGrantsOnSiteLogout(provider: Provider, siteSignIns: SiteSignIns) {
  type Ended = { uid: string; clientId: string | undefined };
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
    const { session, client, params } = ctx.oidc;
    // Neither every site nor a named one: nothing was ended.
    if (!session || (!params?.logout && !client)) return;
    const ended: Ended = {
      uid: session.uid,
      // `logout=yes`: every site of the library's session; otherwise only the one that asked.
      clientId: params?.logout ? undefined : client?.clientId,
    };
    ctx.state.siteLogout = ended;
  });
  provider.use(async (ctx, next) => {
    await next();
    const ended = ctx.state.siteLogout as Ended | undefined;
    if (ended) await siteSignIns.endBySiteLogout(ended);
  });
}

/**
 * Stops the start on a client the library would refuse at its first request (a web client's
 * custom-scheme redirect, say): one line per client, in the words of the setting.
 */
export async function assertClientsAccepted(
  provider: Provider,
  clients: readonly OidcClientSetting[],
): Promise<void> {
  const problems: string[] = [];
  for (const [index, client] of clients.entries()) {
    try {
      await provider.Client.find(client.client_id);
    } catch (error) {
      const { error_description, message } = error as {
        error_description?: string;
        message: string;
      };
      problems.push(`OIDC_CLIENTS.${index}: ${error_description ?? message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
}

/** The client as the library takes it: the setting's metadata, nothing added. */
function clientMetadata(client: OidcClientSetting) {
  const { grant_types, backchannel_logout_uri, client_secret, client_name, ...rest } = client;
  return {
    ...rest,
    grant_types,
    // The device grant answers no redirect: no authorization response type then.
    response_types: grant_types.includes('authorization_code') ? (['code'] as const) : [],
    ...(client_secret ? { client_secret } : {}),
    ...(client_name ? { client_name } : {}),
    ...(backchannel_logout_uri ? { backchannel_logout_uri } : {}),
  };
}

/**
 * The brand's clients are first-party: the grant gives them the scopes and claims they asked
 * for, so the library asks no consent. A grant left from another account is not reused. The
 * grant is recorded as a sign-in of the site from the portal session that signed in: the one in
 * the interaction's result, or, with no sign-in step (single sign-on), the one the library's
 * session signed in with before; when that one has lapsed (expired, idle too long), or there is
 * none (a library session from before site sign-ins were recorded, migrations/0795), there is no
 * grant, and the library asks the portal's `/auth` again: no grant is tied to no portal session,
 * which no sign-out would end.
 */
async function grantRequestedScopes(ctx: KoaContextWithOIDC, siteSignIns: SiteSignIns) {
  const { oidc } = ctx;
  const session = oidc.session!;
  const accountId = session.accountId!;
  const clientId = oidc.client!.clientId;
  const result = oidc.result as PortalInteractionResult | undefined;
  const portalSessionId =
    result?.portalSessionId ?? (await siteSignIns.portalSessionOf(session.uid));
  if (!portalSessionId) return undefined;
  // Only without any sign-in step: an interaction's result has just signed the person in.
  if (!result && !(await siteSignIns.isPortalSessionLive(accountId, portalSessionId))) {
    return undefined;
  }
  const grantId = oidc.result?.consent?.grantId ?? session.grantIdFor(clientId);
  const found = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  const grant =
    found?.accountId === accountId ? found : new oidc.provider.Grant({ clientId, accountId });
  const requested = oidc as unknown as {
    requestParamOIDCScopes: Set<string>;
    requestParamClaims: Set<string>;
  };
  grant.addOIDCScope([...requested.requestParamOIDCScopes].join(' '));
  if (requested.requestParamClaims.size > 0) grant.addOIDCClaims([...requested.requestParamClaims]);
  await grant.save();
  // The library gives the client its `sid` right after this; given here first, so it is the same.
  session.ensureClientContainer(clientId);
  await siteSignIns.record(
    {
      grantId: grant.jti,
      clientId,
      userId: accountId,
      portalSessionId,
      providerSessionUid: session.uid,
      sid: session.sidFor(clientId)!,
    },
    { userAgent: ctx.get('user-agent'), ipAddress: ctx.ip },
  );
  return grant;
}

/** The library's fetch without its special-use address guard, for a loopback address only. */
const fetchAllowingLoopback = (input: string | URL | Request, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : input);
  if (!isLocalPortal(url.origin)) return fetch(input, init);
  const { dispatcher: _guard, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
  return fetch(input, rest);
};

function isHttps(url: string): boolean {
  return new URL(url).protocol === 'https:';
}
