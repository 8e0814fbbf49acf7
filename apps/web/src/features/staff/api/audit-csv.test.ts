import { STAFF_API } from '@portal/contracts/staff';
import { fakeFetch } from '@test-support/fake-fetch';
import { memoryStorage } from '@test-support/memory-storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadAuditCsv } from './audit-csv';

describe("the audit's CSV", () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage({ access_token: 'tok-1' })));
  afterEach(() => vi.unstubAllGlobals());

  it('is asked with the filters on the page and the Bearer token, and named as the server says', async () => {
    const sent = fakeFetch(
      () =>
        new Response('seq,at\n1,2026-11-01', {
          headers: { 'Content-Disposition': 'attachment; filename="audit-2026-11.csv"' },
        }),
    );
    const answer = await downloadAuditCsv({
      actor: 'anna',
      account: '',
      kind: 'refund',
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(answer.data?.fileName).toBe('audit-2026-11.csv');
    expect(await answer.data?.file.text()).toBe('seq,at\n1,2026-11-01');
    const url = new URL(sent[0]!.url, 'http://portal.test');
    expect(url.pathname).toBe(`${STAFF_API}/audit.csv`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      actor: 'anna',
      kind: 'refund',
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(new Headers(sent[0]!.init.headers).get('Authorization')).toBe('Bearer tok-1');
  });

  it("gives the server's refusal to show", async () => {
    fakeFetch(
      () =>
        new Response(JSON.stringify({ message: 'Не найдено' }), {
          status: 404,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const answer = await downloadAuditCsv({});
    expect(answer.error).toMatchObject({ status: 404, text: 'Не найдено' });
  });
});
