import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the web app's logic that need no DOM (jsdom is not installed on purpose: what
// touches the DOM is tested in a real browser, see vitest.e2e.config.ts).
export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Helpers only tests use (README "Browser tests"); a feature's test reaches them by this name.
      '@test-support': fileURLToPath(new URL('./test/support', import.meta.url)),
    },
  },
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
