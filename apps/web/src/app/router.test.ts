import { STAFF_PAGES } from '@portal/contracts/staff';
import { describe, expect, it } from 'vitest';
import { STAFF_AREA_PATH } from './router';

describe('the routes', () => {
  it("mount the staff area at the contract's address (written out there: staff.ts brings zod)", () => {
    expect(STAFF_AREA_PATH).toBe(`${STAFF_PAGES.search}/*`);
  });
});
