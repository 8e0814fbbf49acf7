import { defineConfig } from 'vitest/config';

// Browser tests: the real server in a child process, Debian's Chromium through playwright-core.
// Files run one at a time: each starts its own server and browser, and the machine has 2 cores.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['test/support/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
