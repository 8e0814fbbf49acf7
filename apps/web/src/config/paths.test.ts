import { PAGE_PATHS } from '@portal/contracts/page-paths';
import { describe, expect, it } from 'vitest';
import { paths } from './paths';

describe('paths', () => {
  it('route every page the server answers whatever the Accept header, and no other', () => {
    const routed = Object.values(paths)
      .map((route) => route.path)
      .filter((path) => path !== '*');
    expect([...routed].sort()).toEqual([...PAGE_PATHS].sort());
  });

  it('link to a receipt by its address, the id as one segment', () => {
    expect(paths.walletReceipt.getHref('a/b')).toBe('/wallet/receipts/a%2Fb');
  });
});
