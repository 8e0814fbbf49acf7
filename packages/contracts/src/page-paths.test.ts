import { describe, expect, it } from 'vitest';
import { isPagePath } from './page-paths';

describe('isPagePath', () => {
  it('knows the pages, with a segment for each parameter and an optional trailing slash', () => {
    for (const path of ['/', '/auth', '/profile/', '/profile/devices', '/wallet/receipts/r-1']) {
      expect(isPagePath(path), path).toBe(true);
    }
  });

  it('knows nothing else: API addresses, files, deeper or other paths', () => {
    for (const path of [
      '/authms/api/Auth/none',
      '/assets/app.js',
      '/favicon.svg',
      '/wallet/receipts',
      '/wallet/receipts/r-1/more',
      '/authx',
    ]) {
      expect(isPagePath(path), path).toBe(false);
    }
  });
});
