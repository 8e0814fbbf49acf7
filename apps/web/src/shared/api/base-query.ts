import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { type ApiFailure, toApiFailure } from './api-failure';
import { api, type HttpMethod, msApi, type RequestConfig } from './http';

/**
 * One call of an endpoint, as the portal's API slice describes it: which API base, the method,
 * the path and what `shared/api/http.ts` takes. A call is protected (`requiresAuth`) unless it says
 * `isPublic`: without a stored token it fails locally with 'No authorisation', never reaching the
 * network.
 */
export type PortalRequest = {
  url: string;
  /** `ms` (the default): `/authms`, `/paymentms`…; `main`: `/payments/*`, `/upload`… */
  base?: 'ms' | 'main';
  method?: HttpMethod;
  body?: unknown;
  params?: RequestConfig['params'];
  responseType?: RequestConfig['responseType'];
  /** Data anyone may read (the service catalogue): sent without a token too. */
  isPublic?: boolean;
  /** This tab's own session ends by this call (`RequestConfig.endsSession`). */
  endsSession?: boolean;
};

/** What an answer carries besides its body. */
export type PortalMeta = { status: number; headers: Record<string, string> };

/**
 * RTK Query's `baseQuery` over the portal's HTTP client, so a query keeps every behaviour of a
 * plain call: the bearer token, the session refused on a 401 (`onSessionRefused`), the read asked
 * once more when no answer came, the answer timeout. A failure is `toApiFailure`'s plain data
 * (status, the server's message or «Нет соединения с сервером…», field errors, reason): the
 * screens read it as they read a thunk's rejected value. A call RTK Query gives up (its signal
 * aborted) is a failure too, whose text is 'canceled'; nobody shows it.
 */
export const portalBaseQuery: BaseQueryFn<
  PortalRequest,
  unknown,
  ApiFailure,
  object,
  PortalMeta
> = async (request, { signal }) => {
  const client = request.base === 'main' ? api : msApi;
  const config: RequestConfig = {
    requiresAuth: !request.isPublic,
    signal,
    params: request.params,
    responseType: request.responseType,
    endsSession: request.endsSession,
  };
  try {
    const response = await client.request(
      request.method ?? 'GET',
      request.url,
      request.body,
      config,
    );
    return { data: response.data, meta: { status: response.status, headers: response.headers } };
  } catch (error) {
    return { error: toApiFailure(error) };
  }
};
