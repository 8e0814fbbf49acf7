import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      'apps/*/vitest.e2e.config.ts',
      'apps/*/vitest.system.config.ts',
      'examples/*/vitest.config.ts',
    ],
  },
});
