import { defineConfig } from 'vitest/config';

// System tests: real server PROCESSES (`node --import tsx src/server.ts`) on free ports against the
// machine's PostgreSQL and Redis, broken on purpose (test/system/README.md). Files run one at a
// time: each starts several servers, and the machine has 2 cores.
export default defineConfig({
  test: {
    name: 'system',
    root: import.meta.dirname,
    include: ['test/system/**/*.test.ts'],
    globalSetup: ['test/support/system/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
