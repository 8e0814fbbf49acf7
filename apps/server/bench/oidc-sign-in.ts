// The provider's sign-in against the portal's own: the server's CPU (every thread's time on a
// core, user + system, from /proc/<pid>/task/*/schedstat: what `process.cpuUsage()` gives inside
// the process) per password sign-in, and per whole sign-in to a site through the provider: the
// same password sign-in, the authorization, the interaction finished with the session, the code
// exchanged, userinfo. The goal: the second no more than 1.5 × the first (argon2 included in
// both). The two alternate in rounds, so that a busy machine weighs on both alike.
import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Portal, Row } from './harness.js';
import { cpuNanoseconds } from './processes.js';

const SIGN_INS = Number(process.env.BENCH_OIDC_SIGN_INS ?? 40);
/** Sign-ins of each kind per round: password ones, then as many through the provider. */
const PER_ROUND = 5;
const WARM_UP = 5;
const SECRET = 'bench-site-secret-0123456789abcdef';
const CALLBACK = 'https://site.example/callback';
const API = '/authms/api/Auth';

/** What the portal is started with for this scenario: one site, and the bench as its proxy. */
export const OIDC_BENCH_ENV = {
  OIDC_CLIENTS: JSON.stringify([
    {
      client_id: 'bench-site',
      client_secret: SECRET,
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
    },
  ]),
  // Each sign-in comes from its own address (X-Forwarded-For), as people do: the per-address
  // limits are not what is measured.
  TRUSTED_PROXIES: '127.0.0.1',
};

/** The server's CPU (ns) per step of the provider's sign-in, summed over the measured ones. */
export type StepCpu = Map<string, number>;

/** Runs `once` and adds the server's CPU meanwhile to `name`'s sum (nothing without `steps`). */
async function step<T>(
  pid: number,
  steps: StepCpu | undefined,
  name: string,
  once: () => Promise<T>,
) {
  if (!steps) return once();
  const before = cpuNanoseconds(pid);
  const result = await once();
  steps.set(name, (steps.get(name) ?? 0) + cpuNanoseconds(pid) - before);
  return result;
}

const randomIp = () => `10.${[...randomBytes(3)].join('.')}`;

export async function passwordSignIn(base: string, userName: string, password: string, ip: string) {
  const response = await fetch(`${base}${API}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ usernameOrEmail: userName, password }),
  });
  if (response.status !== 200) throw new Error(`login: HTTP ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** The whole sign-in of a site through the provider, a browser played by hand. */
export async function providerSignIn(
  portal: Portal,
  site: client.Configuration,
  user: { userName: string; password: string },
  ip: string,
  steps?: StepCpu,
) {
  const { base, pid } = portal;
  const token = await step(pid, steps, 'password sign-in', () =>
    passwordSignIn(base, user.userName, user.password, ip),
  );
  const cookies = new Map<string, string>();
  const browse = async (method: string, url: string, bearer?: string) => {
    const target = new URL(url, base);
    const response = await fetch(`${base}${target.pathname}${target.search}`, {
      method,
      redirect: 'manual',
      headers: {
        'x-forwarded-for': ip,
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [name, value] = cookie.split(';')[0]!.split('=');
      cookies.set(name!, value ?? '');
    }
    return response;
  };
  const verifier = client.randomPKCECodeVerifier();
  const challenge = await client.calculatePKCECodeChallenge(verifier);
  const started = await step(pid, steps, 'authorize', () =>
    browse(
      'GET',
      client
        .buildAuthorizationUrl(site, {
          redirect_uri: CALLBACK,
          scope: 'openid profile email',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })
        .toString(),
    ),
  );
  const forwarded = await step(pid, steps, 'to /auth', () =>
    browse('GET', started.headers.get('location')!),
  );
  const uid = new URL(forwarded.headers.get('location')!, base).searchParams.get('interaction');
  const next = await step(pid, steps, 'interaction sign-in', async () => {
    const finished = await browse('POST', `/oidc/interaction/${uid}/sign-in`, token);
    if (finished.status !== 200) throw new Error(`interaction: HTTP ${finished.status}`);
    return ((await finished.json()) as { url: string }).url;
  });
  const back = await step(pid, steps, 'resume', () => browse('GET', next));
  const tokens = await step(pid, steps, 'token', () =>
    client.authorizationCodeGrant(site, new URL(back.headers.get('location')!), {
      pkceCodeVerifier: verifier,
      idTokenExpected: true,
    }),
  );
  await step(pid, steps, 'userinfo', () =>
    client.fetchUserInfo(site, tokens.access_token, tokens.claims()!.sub),
  );
}

/** The server's CPU nanoseconds over `count` calls of `once`, one after another. */
async function cpuOf(pid: number, count: number, once: () => Promise<unknown>) {
  const before = cpuNanoseconds(pid);
  for (let index = 0; index < count; index++) await once();
  return cpuNanoseconds(pid) - before;
}

/** A portal to measure, with the account it signs in and the name of its row. */
export interface MeasuredPortal {
  label: string;
  portal: Portal;
  user: { userName: string; password: string };
}

/**
 * One row per portal. With two (a build against the one before it, `BENCH_OIDC_BASELINE` in
 * run.ts) the portals take turns round by round, so that a busy machine weighs on both alike.
 */
export async function oidcSignInRows(portals: MeasuredPortal[]): Promise<Row[]> {
  const ip = randomIp;
  const runs = await Promise.all(
    portals.map(async ({ label, portal, user }) => {
      const site = await client.discovery(new URL(portal.base), 'bench-site', SECRET, undefined, {
        execute: [client.allowInsecureRequests],
      });
      const steps: StepCpu = new Map();
      return {
        label,
        portal,
        steps,
        viaPassword: () => passwordSignIn(portal.base, user.userName, user.password, ip()),
        viaProvider: () => providerSignIn(portal, site, user, ip(), steps),
        passwordNs: 0,
        providerNs: 0,
      };
    }),
  );
  for (const run of runs) {
    await cpuOf(run.portal.pid, WARM_UP, run.viaPassword);
    await cpuOf(run.portal.pid, WARM_UP, run.viaProvider);
    run.steps.clear();
  }
  let done = 0;
  while (done < SIGN_INS) {
    const count = Math.min(PER_ROUND, SIGN_INS - done);
    for (const run of runs) {
      run.passwordNs += await cpuOf(run.portal.pid, count, run.viaPassword);
      run.providerNs += await cpuOf(run.portal.pid, count, run.viaProvider);
    }
    done += count;
  }
  return runs.map((run) => {
    const password = run.passwordNs / 1000 / SIGN_INS;
    const provider = run.providerNs / 1000 / SIGN_INS;
    const ratio = provider / password;
    // Where it goes: each request's CPU apart (µs per sign-in).
    const perStep = [...run.steps]
      .map(([name, ns]) => `${name} ${(ns / 1000 / SIGN_INS).toFixed(0)}`)
      .join(', ');
    return {
      scenario: `${run.label}sign-in to a site through the provider vs a portal password sign-in (${SIGN_INS} each, one at a time, alternating by ${PER_ROUND})`,
      requestsPerSecond: 0,
      p99Ms: 0,
      cpuUsPerRequest: provider,
      goal: 'CPU ≤ 1.5× a password sign-in',
      met: ratio <= 1.5,
      note: `password sign-in ${password.toFixed(0)} µs, through the provider ${provider.toFixed(0)} µs: ${ratio.toFixed(2)}×, adds ${((provider - password) / 1000).toFixed(1)} ms; per request, µs: ${perStep}`,
    };
  });
}
