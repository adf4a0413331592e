// Tests that run inside workerd, the Workers runtime, with wrangler.toml's bindings
// (@cloudflare/vitest-pool-workers). `npm test` runs them after the Node ones.
import { defineWorkersConfig } from '@cloudflare/vitest-pool-workers/config';

export default defineWorkersConfig({
  test: {
    include: ['test/workerd/**/*.test.ts'],
    poolOptions: { workers: { wrangler: { configPath: './wrangler.toml' } } },
  },
});
