// Reading the account's security log in tests (modules/security-log).
import type { SecurityEvent, SecurityLogAnswer } from '@portal/contracts/security-log';
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

export const SECURITY_LOG_URL = '/authms/api/Auth/security-log';

/** The account's events as its owner reads them, newest first, every page. */
export async function securityLogOf(
  { app }: Pick<TestApp, 'app'>,
  headers: Record<string, string>,
): Promise<SecurityEvent[]> {
  const events: SecurityEvent[] = [];
  let cursor: string | null = null;
  do {
    const response: Awaited<ReturnType<typeof app.inject>> = await app.inject({
      method: 'GET',
      url: SECURITY_LOG_URL,
      headers,
      query: { limit: '100', ...(cursor ? { cursor } : {}) },
    });
    expect(response.statusCode, response.body).toBe(200);
    const page: SecurityLogAnswer = response.json();
    events.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return events;
}

/** The account's events read straight from the log (for an account without a session), newest first. */
export async function securityEventsOf({ app }: Pick<TestApp, 'app'>, userId: string) {
  return (await app.deps.securityLog.page(userId, { limit: 1000 })).data;
}

/** The kinds of the account's events, newest first. */
export async function securityKindsOf(testApp: Pick<TestApp, 'app'>, userId: string) {
  return (await securityEventsOf(testApp, userId)).map((event) => event.kind);
}
