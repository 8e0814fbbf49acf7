import { NO_AUTHORISATION } from '@portal/contracts/messages';
import axios, { AxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { runtimeConfig } from '@/config/runtime-config';
import { readAccessToken } from './token-storage';

declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * Protected data (user, services, devices, payment history): without a stored token the
     * request is refused here with 'No authorisation' and never reaches the network (spec §6).
     */
    requiresAuth?: boolean;
  }
}

function attachToken(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const token = readAccessToken();
  if (!token) {
    if (config.requiresAuth) {
      throw new AxiosError(NO_AUTHORISATION, 'ERR_NO_AUTHORISATION', config);
    }
    return config;
  }
  config.headers.set('Authorization', `Bearer ${token}`);
  return config;
}

// Spec §7: no request timeout (uploads and payments can take long); axios' default of 0 is "none",
// set explicitly so nobody adds one by accident.
function createClient(baseURL: string): AxiosInstance {
  const client = axios.create({ baseURL, timeout: 0 });
  client.interceptors.request.use(attachToken);
  return client;
}

/** Main base: `/upload`, `/auth/yandex/*`, `/payments/*`, `/{product}/auth/password/change`. */
export const api = createClient(runtimeConfig.apiBaseUrl);

/** Microservice base: `/authms`, `/paymentms`, `/serversms`, `/telegrambotms`. */
export const msApi = createClient(runtimeConfig.msApiBaseUrl);
