import type { AxiosInstance } from 'axios';
import { runtimeConfig } from '@/config/runtime-config';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** An axios instance as the features use it: its request methods and its defaults. */
export type HttpClient = Pick<AxiosInstance, Method> & {
  defaults: Partial<AxiosInstance['defaults']>;
};

/**
 * A client whose axios loads with its first request: a visitor of /auth downloads axios only when
 * the form is sent (the JavaScript budget of apps/web/README.md, "Budgets"). Until then `defaults`
 * is a plain object, merged into the instance when it is made; from then on it is the instance's
 * own.
 */
function lazyClient(baseURL: string): HttpClient {
  let instance: Promise<AxiosInstance> | undefined;
  const load = () => {
    instance ??= import('./axios-client').then(({ createAxiosClient }) => {
      const created = createAxiosClient(baseURL, client.defaults);
      client.defaults = created.defaults;
      return created;
    });
    return instance;
  };
  const method =
    (name: Method) =>
    (...args: unknown[]) =>
      load().then((axios) => (axios[name] as (...rest: unknown[]) => unknown)(...args));
  const client: HttpClient = {
    // No request timeout (uploads and payments can take long); axios' default of 0 is
    // "none", set explicitly so nobody adds one by accident.
    defaults: { timeout: 0 },
    get: method('get') as AxiosInstance['get'],
    post: method('post') as AxiosInstance['post'],
    put: method('put') as AxiosInstance['put'],
    patch: method('patch') as AxiosInstance['patch'],
    delete: method('delete') as AxiosInstance['delete'],
  };
  return client;
}

/** Main base: `/upload`, `/auth/yandex/*`, `/payments/*`, `/{product}/auth/password/change`. */
export const api = lazyClient(runtimeConfig.apiBaseUrl);

/** Microservice base: `/authms`, `/paymentms`, `/serversms`, `/telegrambotms`. */
export const msApi = lazyClient(runtimeConfig.msApiBaseUrl);
