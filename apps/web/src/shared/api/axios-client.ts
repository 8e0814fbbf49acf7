import { NO_AUTHORISATION } from '@portal/contracts/messages';
import axios, { AxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { readAccessToken } from './token-storage';

declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * Protected data (user, services, devices, payment history): without a stored token the
     * request is refused here with 'No authorisation' and never reaches the network.
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

/** An axios instance for one API base, with the bearer token of the stored session. */
export function createAxiosClient(
  baseURL: string,
  defaults: Partial<AxiosInstance['defaults']>,
): AxiosInstance {
  const client = axios.create({ ...defaults, baseURL });
  client.interceptors.request.use(attachToken);
  return client;
}
