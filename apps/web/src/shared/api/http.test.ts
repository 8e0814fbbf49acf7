import { NO_AUTHORISATION } from '@portal/contracts/messages';
import { memoryStorage } from '@test-support/memory-storage';
import type { AxiosAdapter } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, msApi } from './http';

// Answers with what would have been sent, so no network is involved.
const echo: AxiosAdapter = async (config) => ({
  data: { authorization: config.headers.get('Authorization') ?? null, url: config.url },
  status: 200,
  statusText: 'OK',
  headers: {},
  config,
});

describe('http clients', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage({})));
  afterEach(() => vi.unstubAllGlobals());

  it('refuses protected calls locally without a token, before any network', async () => {
    const adapter = vi.fn(echo);
    await expect(
      msApi.post('/authms/api/Auth/user', undefined, { requiresAuth: true, adapter }),
    ).rejects.toThrow(NO_AUTHORISATION);
    expect(adapter).not.toHaveBeenCalled();
  });

  it('sends public calls without a token and without an Authorization header', async () => {
    const { data } = await msApi.post('/authms/api/Auth/login', {}, { adapter: echo });
    expect(data.authorization).toBeNull();
  });

  it('adds the stored token as a bearer header on both bases', async () => {
    vi.stubGlobal('localStorage', memoryStorage({ access_token: 'tok-123' }));
    const main = await api.get('/payments/payments/user', { requiresAuth: true, adapter: echo });
    const ms = await msApi.post('/authms/api/Auth/devices', undefined, {
      requiresAuth: true,
      adapter: echo,
    });
    expect(main.data.authorization).toBe('Bearer tok-123');
    expect(ms.data.authorization).toBe('Bearer tok-123');
  });

  it('has no request timeout, since uploads and payments can take long', () => {
    expect(api.defaults.timeout).toBe(0);
    expect(msApi.defaults.timeout).toBe(0);
  });
});
