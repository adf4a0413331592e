import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // These run inside workerd: vitest.workers.config.ts.
    exclude: ['test/workerd/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
