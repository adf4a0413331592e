// Tests that run inside workerd (the Workers runtime) through @cloudflare/vitest-pool-workers,
// with the bindings of test/workerd/wrangler.toml. `npm run test:workers`; `npm test` runs it too.
// A config of its own: the pool replaces vitest's Node pool for every file it runs.
import { defineWorkersConfig } from '@cloudflare/vitest-pool-workers/config';

export default defineWorkersConfig({
  test: {
    include: ['test/workerd/**/*.test.ts'],
    poolOptions: {
      workers: {
        wrangler: { configPath: './test/workerd/wrangler.toml' },
        // Secrets as `wrangler secret put` would give them (test/workerd/env-config.test.ts).
        miniflare: {
          bindings: {
            SESSION_SECRET: 'workerd-session-secret-0123456789abcdef',
            JWT_SECRET: 'workerd-jwt-secret-0123456789abcdef',
          },
        },
      },
    },
  },
});
