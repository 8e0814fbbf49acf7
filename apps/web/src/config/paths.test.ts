import { PAGE_PATHS } from '@portal/contracts/page-paths';
import { describe, expect, it } from 'vitest';
import { paths } from './paths';

describe('paths', () => {
  it('are the pages the server answers whatever the Accept header (contracts/page-paths.ts)', () => {
    const routed = Object.values(paths)
      .map((route) => route.path)
      .filter((path) => path !== '*');
    expect([...routed].sort()).toEqual([...PAGE_PATHS].sort());
  });
});
