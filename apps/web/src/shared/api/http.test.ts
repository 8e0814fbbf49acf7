import { NO_AUTHORISATION, NO_CONNECTION } from '@portal/contracts/messages';
import { fakeFetch, json } from '@test-support/fake-fetch';
import { memoryStorage } from '@test-support/memory-storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, HttpError, msApi } from './http';

describe('http clients', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage({})));
  afterEach(() => vi.unstubAllGlobals());

  it('says in Russian that there is no connection when a call gets no answer; a change is sent once', async () => {
    const sent: string[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push(String(init.method));
      throw new TypeError('Failed to fetch');
    });
    await expect(msApi.post('/authms/api/Auth/login', { usernameOrEmail: 'a' })).rejects.toThrow(
      new HttpError(NO_CONNECTION),
    );
    expect(sent).toEqual(['POST']);
  });

  it('asks a read once more when it got no answer, and takes the second answer', async () => {
    vi.useFakeTimers();
    try {
      const sent: string[] = [];
      vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
        sent.push(String(init.method));
        if (sent.length === 1) throw new TypeError('Failed to fetch');
        return json({ ok: true });
      });
      const answer = api.get('/payments/payments/user');
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await answer).data).toEqual({ ok: true });
      expect(sent).toEqual(['GET', 'GET']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up on an answer that never comes', async () => {
    vi.useFakeTimers();
    try {
      vi.stubGlobal(
        'fetch',
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
          ),
      );
      const answer = msApi.post('/authms/api/Auth/login', {});
      const refused = expect(answer).rejects.toThrow(NO_CONNECTION);
      await vi.advanceTimersByTimeAsync(30_000);
      await refused;
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses protected calls locally without a token, before any network', async () => {
    const sent = fakeFetch(() => json({}));
    await expect(
      msApi.post('/authms/api/Auth/user', undefined, { requiresAuth: true }),
    ).rejects.toThrow(NO_AUTHORISATION);
    expect(sent).toEqual([]);
  });

  it('sends public calls without a token and without an Authorization header', async () => {
    const sent = fakeFetch(() => json({ ok: true }));
    const { data } = await msApi.post('/authms/api/Auth/login', { usernameOrEmail: 'a' });
    expect(data).toEqual({ ok: true });
    const headers = new Headers(sent[0]!.init.headers);
    expect(headers.get('Authorization')).toBeNull();
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(sent[0]!.init.body).toBe('{"usernameOrEmail":"a"}');
  });

  it('adds the stored token as a bearer header on both bases', async () => {
    vi.stubGlobal('localStorage', memoryStorage({ access_token: 'tok-123' }));
    const sent = fakeFetch(() => json({}));
    await api.get('/payments/payments/user', { requiresAuth: true });
    await msApi.post('/authms/api/Auth/devices', undefined, { requiresAuth: true });
    for (const { init } of sent) {
      expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok-123');
    }
  });

  it('puts the parameters that have a value into the query', async () => {
    const sent = fakeFetch(() => json({}));
    await api.get('/payments/payments/user', {
      params: { limit: 20, cursor: undefined, direction: 'in', currency: null },
    });
    expect(sent[0]!.url).toBe('/payments/payments/user?limit=20&direction=in');
  });

  it('rejects an answer outside 2xx with its status, body and headers', async () => {
    fakeFetch(() =>
      json({ message: 'Слишком много попыток' }, { status: 429, headers: { 'Retry-After': '30' } }),
    );
    const error = await msApi.post('/authms/api/Auth/login', {}).catch((caught) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.response).toMatchObject({
      status: 429,
      data: { message: 'Слишком много попыток' },
      headers: { 'retry-after': '30' },
    });
  });

  it('rejects with no answer when the network fails', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await msApi.get('/authms/api/Auth/user').catch((caught) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.response).toBeUndefined();
  });

  it('reads a text answer that is not JSON as text', async () => {
    fakeFetch(() => new Response('plain'));
    expect((await api.get('/health')).data).toBe('plain');
  });
});
