import { NO_AUTHORISATION, NO_CONNECTION, UNKNOWN_ERROR } from '@portal/contracts/messages';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { fakeFetch, json } from '@test-support/fake-fetch';
import { memoryStorage } from '@test-support/memory-storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureOf } from './api-failure';
import { type PortalRequest, portalBaseQuery } from './base-query';

const run = (request: PortalRequest, signal = new AbortController().signal) =>
  portalBaseQuery(request, { signal } as BaseQueryApi, {});

describe('the API slice over the HTTP client', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage({ access_token: 'tok-123' })));
  afterEach(() => vi.unstubAllGlobals());

  it('sends the call with the stored token and gives the answer with its status', async () => {
    const sent = fakeFetch(() => json([{ id: 'd-1' }], { headers: { 'X-Total': '1' } }));
    const result = await run({ url: '/authms/api/Auth/devices', method: 'POST' });
    expect(result).toEqual({
      data: [{ id: 'd-1' }],
      meta: { status: 200, headers: expect.objectContaining({ 'x-total': '1' }) },
    });
    expect(sent[0]!.url).toBe('/authms/api/Auth/devices');
    expect(sent[0]!.init.method).toBe('POST');
    expect(new Headers(sent[0]!.init.headers).get('Authorization')).toBe('Bearer tok-123');
  });

  it('puts the parameters in the query, the body as JSON, on the base asked', async () => {
    const sent = fakeFetch(() => json({}));
    await run({
      base: 'main',
      url: '/payments/payments/user',
      params: { limit: 20, cursor: null },
    });
    await run({ url: '/authms/api/Auth/passkeys/p-1', method: 'PATCH', body: { name: 'Ноутбук' } });
    expect(sent[0]!.url).toBe('/payments/payments/user?limit=20');
    expect(sent[1]!.init.body).toBe(JSON.stringify({ name: 'Ноутбук' }));
  });

  it("maps a refusal to toApiFailure's plain data: status, message, field errors, reason", async () => {
    fakeFetch(() =>
      json(
        { message: 'Подтвердите, что это вы', reason: 'proof_required', errors: { name: ['x'] } },
        { status: 403 },
      ),
    );
    const result = await run({ url: '/authms/api/Auth/passkeys/p-1', method: 'DELETE' });
    expect(result.error).toMatchObject({
      isRequestError: true,
      status: 403,
      message: 'Подтвердите, что это вы',
      reason: 'proof_required',
      errors: { name: ['x'] },
      text: 'Подтвердите, что это вы',
    });
    // Plain data: a Redux action can carry it.
    expect(JSON.parse(JSON.stringify(result.error))).toEqual(result.error);
  });

  it('says in Russian that there is no connection when a change gets no answer (sent once)', async () => {
    const sent = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const result = await run({ url: '/authms/api/Auth/devices/d-1', method: 'DELETE' });
    expect(result.error).toMatchObject({ status: null, text: NO_CONNECTION });
    expect(sent).toHaveLength(1);
  });

  it('asks a read once more when it got no answer, as the client does', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      fakeFetch(() => {
        calls += 1;
        return calls === 1 ? Promise.reject(new TypeError('Failed to fetch')) : json(true);
      });
      const result = run({ url: '/authms/api/Auth/users/check-telegram-user' });
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await result).data).toBe(true);
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a protected call locally without a token; a public one goes without', async () => {
    vi.stubGlobal('localStorage', memoryStorage({}));
    const sent = fakeFetch(() => json([]));
    const refused = await run({ url: '/authms/api/Auth/devices', method: 'POST' });
    expect(refused.error).toMatchObject({ status: null, text: NO_AUTHORISATION });
    expect(sent).toHaveLength(0);
    const open = await run({ url: '/serversms/api/Servers/catalogue', isPublic: true });
    expect(open.data).toEqual([]);
    expect(new Headers(sent[0]!.init.headers).has('Authorization')).toBe(false);
  });

  it("reads a query's error as ApiFailure whatever it is", async () => {
    fakeFetch(() => json({ message: 'Нет такого чека' }, { status: 404 }));
    const { error } = await run({ base: 'main', url: '/payments/receipts/r-1' });
    expect(failureOf(error)).toBe(error);
    // RTK Query's SerializedError (a bug in a transform): the generic text, no status.
    expect(failureOf({ name: 'ZodError', message: 'bad' })).toMatchObject({
      status: null,
      text: UNKNOWN_ERROR,
    });
  });
});
