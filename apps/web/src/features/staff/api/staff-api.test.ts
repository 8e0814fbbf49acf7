import { STAFF_API, type StaffMeAnswer } from '@portal/contracts/staff';
import { configureStore } from '@reduxjs/toolkit';
import { fakeFetch, json } from '@test-support/fake-fetch';
import { memoryStorage } from '@test-support/memory-storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { portalApi } from '@/shared/api/portal-api';
import { staffEntry } from '../staff-entry';
import { staffApi } from './staff-api';
import { isStaffProofAsked, settleStaffProof } from './staff-proof-gate';

const me: StaffMeAnswer = {
  userId: 'u-1',
  username: 'anna',
  role: 'support',
  proofMethods: ['authenticator'],
  provenUntil: null,
};

/** A store with the one API slice, as the app's store has it once a signed-in page loaded. */
const createStore = () =>
  configureStore({
    reducer: { [portalApi.reducerPath]: portalApi.reducer },
    middleware: (getDefault) => getDefault().concat(portalApi.middleware),
  });

const proofRequired = () =>
  json({ message: 'Подтвердите, что это вы', reason: 'staff_proof_required' }, { status: 403 });
const found = { items: [], page: 1, hasMore: false };
const notFound = () => json({ message: 'Не найдено' }, { status: 404 });

/** What the staff area shows once `…/me` answered this. */
async function entryFor(answer: () => Response) {
  fakeFetch(answer);
  const store = createStore();
  const request = store.dispatch(staffApi.endpoints.staffMe.initiate());
  await request;
  const result = staffApi.endpoints.staffMe.select()(store.getState() as never);
  request.unsubscribe();
  return staffEntry(result);
}

describe('the staff area and its calls', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage({ access_token: 'tok-1' })));
  afterEach(() => {
    settleStaffProof(false);
    vi.unstubAllGlobals();
  });

  it("shows the app's not-found page to anyone …/me answers 404 (a customer learns nothing)", async () => {
    expect(await entryFor(() => json({ message: 'Не найдено' }, { status: 404 }))).toEqual({
      kind: 'not-found',
    });
  });

  it('sends a member with nothing to prove themselves with to add a factor', async () => {
    expect(await entryFor(() => json({ ...me, proofMethods: [] }))).toEqual({
      kind: 'needs-factor',
    });
  });

  it('opens the area to a member who can prove themselves', async () => {
    expect(await entryFor(() => json(me))).toEqual({ kind: 'ready', me });
  });

  it('says why the area did not load when …/me failed otherwise (with «Повторить»)', async () => {
    const entry = await entryFor(() => json({ message: 'Ошибка сервера' }, { status: 500 }));
    expect(entry.kind).toBe('failed');
  });

  it('asks for a proof when a call answers staff_proof_required, then repeats it once', async () => {
    let calls = 0;
    const sent = fakeFetch(() => (++calls === 1 ? proofRequired() : json(found)));
    const store = createStore();
    const request = store.dispatch(
      staffApi.endpoints.searchAccounts.initiate({ q: 'anna', page: 1 }),
    );
    await vi.waitFor(() => expect(isStaffProofAsked()).toBe(true));
    expect(sent).toHaveLength(1);
    settleStaffProof(true);
    const result = await request;
    request.unsubscribe();
    expect(result.data).toEqual(found);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.url).toBe(`${STAFF_API}/accounts?q=anna&page=1`);
  });

  it('repeats a change after the proof with the same body', async () => {
    let calls = 0;
    const sent = fakeFetch(() => (++calls === 1 ? proofRequired() : json({ message: 'Готово' })));
    const store = createStore();
    const change = store.dispatch(
      staffApi.endpoints.accountAction.initiate({
        accountId: 'a-1',
        action: 'unlock',
        reason: 'Обращение 42',
      }),
    );
    await vi.waitFor(() => expect(isStaffProofAsked()).toBe(true));
    settleStaffProof(true);
    expect((await change).data).toEqual({ message: 'Готово' });
    expect(sent.map((call) => call.url)).toEqual([
      `${STAFF_API}/accounts/a-1/unlock`,
      `${STAFF_API}/accounts/a-1/unlock`,
    ]);
    expect(sent[1]!.init.body).toBe(JSON.stringify({ reason: 'Обращение 42' }));
  });

  it('keeps the refusal when the member closes the proof dialog: the call is not repeated', async () => {
    const sent = fakeFetch(proofRequired);
    const store = createStore();
    const request = store.dispatch(
      staffApi.endpoints.searchAccounts.initiate({ q: 'anna', page: 1 }),
    );
    await vi.waitFor(() => expect(isStaffProofAsked()).toBe(true));
    settleStaffProof(false);
    const result = await request;
    request.unsubscribe();
    expect(result.error).toMatchObject({ status: 403, reason: 'staff_proof_required' });
    expect(sent).toHaveLength(1);
  });

  it('reads …/me again when a call answers 404: a role taken back shows the not-found page', async () => {
    let role: 'staff' | 'gone' = 'staff';
    // The answer runs after the call is recorded: the last one sent is the one answered.
    const sent = fakeFetch(() =>
      sent.at(-1)?.url.endsWith('/me') && role === 'staff' ? json(me) : notFound(),
    );
    const store = createStore();
    const meRequest = store.dispatch(staffApi.endpoints.staffMe.initiate());
    await meRequest;
    const read = () => staffApi.endpoints.staffMe.select()(store.getState() as never);
    expect(staffEntry(read()).kind).toBe('ready');

    role = 'gone';
    const change = store.dispatch(
      staffApi.endpoints.accountAction.initiate({
        accountId: 'a-1',
        action: 'unlock',
        reason: 'Обращение 42',
      }),
    );
    expect((await change).error).toMatchObject({ status: 404 });
    await vi.waitFor(() => expect(staffEntry(read())).toEqual({ kind: 'not-found' }));
    expect(sent.filter((call) => call.url.endsWith('/me'))).toHaveLength(2);

    // Read again, it stays not found while the answer is on its way: not the last member's frame.
    store.dispatch(staffApi.util.invalidateTags(['StaffMe']));
    expect(read()).toMatchObject({ status: 'pending', isError: false, data: me });
    expect(staffEntry(read())).toEqual({ kind: 'not-found' });
    meRequest.unsubscribe();
  });
});
