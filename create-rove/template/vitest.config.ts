import { defineConfig } from 'vitest/config';

export default defineConfig({
  // test/workerd/ runs inside the Workers runtime: vitest.workers.config.ts.
  test: { include: ['test/**/*.test.ts'], exclude: ['test/workerd/**', '**/node_modules/**'] },
});
