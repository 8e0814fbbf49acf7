import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { users } from '../accounts/schema.js';
import { CodeResendRefused, generateCode, type OneTimeCodes } from './one-time-codes.js';
import { oneTimeCodes } from './schema.js';

let testApp: TestApp;
let codes: OneTimeCodes;
let n = 0;

beforeAll(async () => {
  testApp = await createTestApp();
  codes = testApp.app.deps.codes;
});

/** A subject no other test uses. */
const subject = () => `subject-${++n}`;
const useIt = async () => 'used';

describe('one-time codes', () => {
  it('are six digits from the whole range', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = generateCode();
      expect(code).toMatch(/^\d{6}$/);
      seen.add(code);
    }
    expect(seen.size).toBeGreaterThan(1990);
  });

  it('stores only an HMAC of the code, bound to purpose and subject', async () => {
    const s = subject();
    const { code } = await codes.issue({ purpose: 'registration', subject: s });
    const [row] = await testApp.database.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.subject, s));
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(code);
  });

  it('works only for its own purpose and subject', async () => {
    const s = subject();
    const { code } = await codes.issue({ purpose: 'password-reset', subject: s });
    expect(await codes.redeem({ purpose: 'email-change', subject: s, code }, useIt)).toEqual({
      ok: false,
      reason: 'missing',
    });
    expect(
      await codes.redeem({ purpose: 'password-reset', subject: subject(), code }, useIt),
    ).toEqual({ ok: false, reason: 'missing' });
    const result = await codes.redeem({ purpose: 'password-reset', subject: s, code }, useIt);
    expect(result).toMatchObject({ ok: true, value: 'used' });
  });

  it('carries the user and a payload to the redemption, inside its transaction', async () => {
    const user = await createUser(testApp);
    const s = subject();
    const { code } = await codes.issue({
      purpose: 'email-change',
      subject: s,
      userId: user.id,
      payload: { newEmail: 'new@example.com' },
    });
    const result = await codes.redeem(
      { purpose: 'email-change', subject: s, code },
      async (redeemed, tx) => {
        await tx
          .update(users)
          .set({ email: 'new@example.com' })
          .where(eq(users.id, redeemed.userId!));
        return redeemed;
      },
    );
    expect(result).toMatchObject({
      ok: true,
      redeemed: { userId: user.id, payload: { newEmail: 'new@example.com' } },
    });
    const [row] = await testApp.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.email).toBe('new@example.com');
  });

  it('stays usable when the work after a right code fails, and that work is undone', async () => {
    const user = await createUser(testApp);
    const s = subject();
    const { code } = await codes.issue({ purpose: 'password-change', subject: s });
    await expect(
      codes.redeem({ purpose: 'password-change', subject: s, code }, async (_redeemed, tx) => {
        await tx.update(users).set({ firstName: 'Сломано' }).where(eq(users.id, user.id));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const [row] = await testApp.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.firstName).toBe('Иван');
    expect(
      await codes.redeem({ purpose: 'password-change', subject: s, code }, useIt),
    ).toMatchObject({
      ok: true,
    });
  });

  it('counts a try even when it is right only on the sixth attempt: the code is dead', async () => {
    const s = subject();
    const { code } = await codes.issue({ purpose: 'registration', subject: s });
    const wrong = code === '999999' ? '000000' : '999999';
    for (let i = 0; i < 5; i++) {
      expect(
        await codes.redeem({ purpose: 'registration', subject: s, code: wrong }, useIt),
      ).toEqual({
        ok: false,
        reason: 'wrong',
      });
    }
    expect(await codes.redeem({ purpose: 'registration', subject: s, code }, useIt)).toEqual({
      ok: false,
      reason: 'exhausted',
    });
  });

  it('accepts the right code on the fifth try', async () => {
    const s = subject();
    const { code } = await codes.issue({ purpose: 'registration', subject: s });
    const wrong = code === '999999' ? '000000' : '999999';
    for (let i = 0; i < 4; i++) {
      await codes.redeem({ purpose: 'registration', subject: s, code: wrong }, useIt);
    }
    expect(await codes.redeem({ purpose: 'registration', subject: s, code }, useIt)).toMatchObject({
      ok: true,
    });
  });

  it('lets exactly one of many simultaneous redemptions of the right code win', async () => {
    const s = subject();
    const { code } = await codes.issue({ purpose: 'registration', subject: s });
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        codes.redeem({ purpose: 'registration', subject: s, code }, async () => {
          runs += 1;
          return runs;
        }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(runs).toBe(1);
  });

  it('expires after 10 minutes', async () => {
    const s = subject();
    const { code, expiresAt } = await codes.issue({ purpose: 'registration', subject: s });
    expect(expiresAt.getTime() - testApp.clock.now().getTime()).toBe(600_000);
    testApp.clock.advance(600_000);
    expect(await codes.redeem({ purpose: 'registration', subject: s, code }, useIt)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('replaces the old code with a new one, after the countdown of 60 s then 30 s', async () => {
    const s = subject();
    const first = await codes.issue({ purpose: 'registration', subject: s });
    expect(first.resendAfterSeconds).toBe(60);
    const refused = await codes.issue({ purpose: 'registration', subject: s }).catch((e) => e);
    expect(refused).toBeInstanceOf(CodeResendRefused);
    expect(refused).toMatchObject({ statusCode: 429, reason: 'countdown', secondsLeft: 60 });

    testApp.clock.advance(60_000);
    const second = await codes.issue({ purpose: 'registration', subject: s });
    expect(second.resendAfterSeconds).toBe(30);
    testApp.clock.advance(29_500);
    await expect(codes.issue({ purpose: 'registration', subject: s })).rejects.toMatchObject({
      secondsLeft: 1,
    });
    testApp.clock.advance(500);
    const third = await codes.issue({ purpose: 'registration', subject: s });

    for (const old of [first.code, second.code].filter((code) => code !== third.code)) {
      expect(await codes.redeem({ purpose: 'registration', subject: s, code: old }, useIt)).toEqual(
        {
          ok: false,
          reason: 'wrong',
        },
      );
    }
    expect(
      await codes.redeem({ purpose: 'registration', subject: s, code: third.code }, useIt),
    ).toMatchObject({ ok: true });
    // A used code ends the run: the next code may go at once and counts as a first one.
    expect((await codes.issue({ purpose: 'registration', subject: s })).resendAfterSeconds).toBe(
      60,
    );
  });

  it('refuses a seventh code within an hour', async () => {
    const s = subject();
    for (let i = 0; i < 6; i++) {
      await codes.issue({ purpose: 'password-reset', subject: s });
      testApp.clock.advance(60_000);
    }
    const refused = await codes.issue({ purpose: 'password-reset', subject: s }).catch((e) => e);
    expect(refused).toMatchObject({ reason: 'hourly-cap', secondsLeft: 3600 - 360 });
    testApp.clock.advance(3600_000 - 360_000);
    await expect(codes.issue({ purpose: 'password-reset', subject: s })).resolves.toBeDefined();
  });

  it('refuses the countdown atomically: of two simultaneous resends one goes', async () => {
    const s = subject();
    await codes.issue({ purpose: 'registration', subject: s });
    testApp.clock.advance(60_000);
    const results = await Promise.allSettled([
      codes.issue({ purpose: 'registration', subject: s }),
      codes.issue({ purpose: 'registration', subject: s }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('forgets a discarded code', async () => {
    const s = subject();
    const { code } = await codes.issue({ purpose: 'registration', subject: s });
    await codes.discard({ purpose: 'registration', subject: s });
    expect(await codes.redeem({ purpose: 'registration', subject: s, code }, useIt)).toEqual({
      ok: false,
      reason: 'missing',
    });
  });
});
