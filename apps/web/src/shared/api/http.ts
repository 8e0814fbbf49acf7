import { NO_AUTHORISATION, NO_CONNECTION } from '@portal/contracts/messages';
import { runtimeConfig } from '@/config/runtime-config';
import { giveUpAccessToken, isAccessTokenGivenUp, readAccessToken } from './token-storage';

export type RequestConfig = {
  /** Query parameters; `undefined` and `null` ones are left out. */
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Protected data (user, services, devices, payment history): without a stored token the
   * request is refused here with 'No authorisation' and never reaches the network.
   */
  requiresAuth?: boolean;
  /**
   * A call that begins a session (a sign-in, a confirmed registration): its 401 is that call's own refusal,
   * not the stored session's end, so `onSessionRefused`'s listener is not told.
   */
  ownsSession?: boolean;
  /**
   * A call by which this tab ends its own session (a logout, «Выйти» on this device's row): its
   * token is given up before it is sent, so neither its 401 nor that of a read still on its way
   * with the same token (a refetch on focus) is taken for a session ended elsewhere.
   */
  endsSession?: boolean;
  /** `json` (the default) reads JSON, or the text when the answer is not JSON; `blob` a file. */
  responseType?: 'json' | 'blob';
  /** Progress of the body's upload (only an upload asks, and it is sent by XMLHttpRequest). */
  onUploadProgress?: (progress: { loaded: number; total: number }) => void;
};

/** An answer: its body as `responseType` reads it, its status and its headers (names in lower case). */
export type HttpResponse<T> = { data: T; status: number; headers: Record<string, string> };

/**
 * A call that failed: refused locally (no token), not answered (network down, aborted) or
 * answered with a status outside 2xx (`response`). `shared/api/api-failure.ts` reads it. Code that
 * could not load fails as one not answered (`shared/lib/load-once.ts`).
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly isHttpError = true;
  readonly response: HttpResponse<unknown> | undefined;

  constructor(message: string, response?: HttpResponse<unknown>) {
    super(message);
    this.response = response;
  }
}

// A call that got no answer, whether the network is down or the answer never came.
const NETWORK_ERROR = NO_CONNECTION;
const CANCELED = 'canceled';
/**
 * How long a call may wait for its answer before it counts as unanswered: longer than any the
 * server takes (a payment's bank call gives up after 15 s). Uploads report progress and have none.
 */
const ANSWER_TIMEOUT_MS = 30_000;
/** A read that got no answer is asked once more after this pause; a change never is. */
const READ_RETRY_DELAY_MS = 1_000;

/** The methods the portal's servers answer. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type BodyMethod = <T = unknown>(
  url: string,
  body?: unknown,
  config?: RequestConfig,
) => Promise<HttpResponse<T>>;
type BodilessMethod = <T = unknown>(
  url: string,
  config?: RequestConfig,
) => Promise<HttpResponse<T>>;

/**
 * One API base's client: `request` takes any method (the API slice's base query passes the one an
 * endpoint names); the features' plain calls read better with the helper named after theirs.
 */
export type HttpClient = {
  request: <T = unknown>(
    method: HttpMethod,
    url: string,
    body?: unknown,
    config?: RequestConfig,
  ) => Promise<HttpResponse<T>>;
  get: BodilessMethod;
  delete: BodilessMethod;
  post: BodyMethod;
  put: BodyMethod;
  patch: BodyMethod;
};

function urlOf(base: string, path: string, params: RequestConfig['params']): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) query.append(name, String(value));
  }
  const search = query.toString();
  return `${base}${path}${search ? `?${search}` : ''}`;
}

/** A JSON body is sent as JSON; FormData, Blob and text as they are. */
function encodeBody(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (body instanceof FormData || body instanceof Blob || typeof body === 'string') return body;
  headers.set('Content-Type', 'application/json');
  return JSON.stringify(body);
}

function parseText(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

type SessionRefusedListener = (sentToken: string) => void;
let sessionRefusedListener: SessionRefusedListener | null = null;

/**
 * Sets the one listener told when the server refuses the stored session: a 401 answering a
 * request that carried a token (and does not own a session itself). It gets the token that was
 * sent, and is told before the call's promise rejects. `null` removes it.
 */
export function onSessionRefused(listener: SessionRefusedListener | null): void {
  sessionRefusedListener = listener;
}

type Prepared = { url: string; method: string; headers: Headers; body: BodyInit | undefined };

/** The code that sends an upload with its progress; only the avatar's sends one, so it loads then. */
const loadUploader = () => import('./upload-with-progress');

/**
 * The answer, read as `responseType` says. An upload that reports its progress goes by
 * XMLHttpRequest (fetch cannot report it), answered alike; a call that got none is an HttpError.
 */
async function sendAndRead(
  request: Prepared,
  config: RequestConfig,
): Promise<HttpResponse<unknown>> {
  const { onUploadProgress } = config;
  let answer: Response;
  try {
    answer = onUploadProgress
      ? await (await loadUploader()).uploadWithProgress(request, onUploadProgress, config.signal)
      : await fetchAnswer(request, config);
  } catch {
    // The uploader's code that could not load counts as no answer too.
    throw new HttpError(config.signal?.aborted ? CANCELED : NETWORK_ERROR);
  }
  const data =
    config.responseType === 'blob' && answer.ok
      ? await answer.blob()
      : parseText(await answer.text());
  return { data, status: answer.status, headers: Object.fromEntries(answer.headers) };
}

/**
 * The answer, within ANSWER_TIMEOUT_MS; a read with no answer is tried once more (reads change
 * nothing), a change is not (it may have reached the server: only the person repeats it).
 */
async function fetchAnswer(request: Prepared, config: RequestConfig): Promise<Response> {
  const attempt = async () => {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), ANSWER_TIMEOUT_MS);
    const signal = config.signal
      ? AbortSignal.any([config.signal, timeout.signal])
      : timeout.signal;
    try {
      return await fetch(request.url, { ...request, signal });
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    return await attempt();
  } catch (error) {
    if (request.method !== 'GET' || config.signal?.aborted) throw error;
    await new Promise((resolve) => setTimeout(resolve, READ_RETRY_DELAY_MS));
    return attempt();
  }
}

/** A client for one API base, with the bearer token of the stored session. */
export function createHttpClient(base: string): HttpClient {
  async function request<T>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    config: RequestConfig = {},
  ): Promise<HttpResponse<T>> {
    const headers = new Headers(config.headers);
    const token = readAccessToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    else if (config.requiresAuth) throw new HttpError(NO_AUTHORISATION);
    const prepared: Prepared = {
      url: urlOf(base, path, config.params),
      method,
      headers,
      body: encodeBody(body, headers),
    };
    if (token && config.endsSession) giveUpAccessToken(token);
    const response = await sendAndRead(prepared, config);
    const isRefusal = response.status === 401 && token !== null;
    if (isRefusal && !config.ownsSession && !isAccessTokenGivenUp(token)) {
      sessionRefusedListener?.(token);
    }
    if (response.status < 200 || response.status >= 300) {
      throw new HttpError(`Request failed with status code ${response.status}`, response);
    }
    return response as HttpResponse<T>;
  }

  return {
    request,
    get: (url, config) => request('GET', url, undefined, config),
    delete: (url, config) => request('DELETE', url, undefined, config),
    post: (url, body, config) => request('POST', url, body, config),
    put: (url, body, config) => request('PUT', url, body, config),
    patch: (url, body, config) => request('PATCH', url, body, config),
  };
}

/** Main base: `/upload`, `/auth/yandex/*`, `/payments/*`, `/{product}/auth/password/change`. */
export const api = createHttpClient(runtimeConfig.apiBaseUrl);

/** Microservice base: `/authms`, `/paymentms`, `/serversms`, `/telegrambotms`. */
export const msApi = createHttpClient(runtimeConfig.msApiBaseUrl);
