import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'example',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
  },
});
