import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import { sampleValue, scrape } from '../../../test/support/prometheus-exposition.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { createWalletTestApp, requestTopUp } from '../../../test/support/wallet.js';

const MINUTE = 60_000;

describe('the scheduled reconciliation is counted', () => {
  const testApp = createWalletTestApp({ config: { PAYMENT_RECONCILE_INTERVAL_SECONDS: 1 } });

  it('counts each run and the payments it checked', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    expect((await requestTopUp(t, { user, headers }, 300)).statusCode).toBe(200);
    // Old enough to be asked about; the clock stands still, so it is asked about once.
    t.clock.advance(3 * MINUTE);
    // The job runs only on a listening server, every second here.
    await t.app.listen({ port: 0, host: '127.0.0.1' });

    const exposition = await waitFor('a reconciliation run', async () => {
      const current = await scrape(t.app);
      const done = sampleValue(current, 'portal_reconciliation_runs_total', { result: 'done' });
      return done !== undefined && done >= 1 && current;
    });
    const payments = (result: string) =>
      sampleValue(exposition, 'portal_reconciliation_payments_total', { result });
    // The sandbox says the payment is still NEW: checked, not changed.
    expect([payments('checked'), payments('changed'), payments('failed')]).toEqual([1, 0, 0]);
    expect(sampleValue(exposition, 'portal_reconciliation_runs_total', { result: 'error' })).toBe(
      0,
    );
  });
});
