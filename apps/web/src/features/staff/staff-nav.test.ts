import { STAFF_PAGES } from '@portal/contracts/staff';
import { describe, expect, it } from 'vitest';
import { staffAccountHref, staffNavItems, staffRoute } from './staff-nav';

const pagesOf = (role: Parameters<typeof staffNavItems>[0]) =>
  staffNavItems(role).map((item) => item.to);

describe("the staff area's nav", () => {
  it('shows each role only the pages it can use', () => {
    expect(pagesOf('support')).toEqual([STAFF_PAGES.search]);
    expect(pagesOf('finance')).toEqual([STAFF_PAGES.search, STAFF_PAGES.money]);
    expect(pagesOf('admin')).toEqual([
      STAFF_PAGES.search,
      STAFF_PAGES.money,
      STAFF_PAGES.roles,
      STAFF_PAGES.audit,
    ]);
  });

  it("routes each page inside the area mounted at /staff/*, and links to an account's page", () => {
    expect(staffRoute(STAFF_PAGES.search)).toBe('');
    expect(staffRoute(STAFF_PAGES.account)).toBe('accounts/:id');
    expect(staffRoute(STAFF_PAGES.audit)).toBe('audit');
    expect(staffAccountHref('a/1')).toBe('/staff/accounts/a%2F1');
  });
});
