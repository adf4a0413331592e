import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // These run inside workerd: vitest.workers.config.ts.
    exclude: ['test/workerd/**', '**/node_modules/**'],
    // Node 24 for the runs beside the machine's Node (test/conformance/node24.ts).
    globalSetup: ['test/setup/node24.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
