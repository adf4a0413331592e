/// <reference types="@cloudflare/vitest-pool-workers" />
// Runs inside workerd (vitest.workers.config.ts): rateLimit() and timeout() in the Workers runtime itself.
import { describe, expect, it } from 'vitest';
import { toWorker } from '../../adapters/cloudflare.ts';
import { App } from '../../src/index.ts';
import { rateLimit } from '../../src/middleware/rate-limit/index.ts';
import { timeout, timeoutSignal } from '../../src/middleware/timeout/index.ts';

describe('rate limit and timeout inside workerd', () => {
  it('counts by cf-connecting-ip and answers the fourth request 429 with the RateLimit fields', async () => {
    const app = new App();
    app.use(rateLimit({ window: 60, limit: 3 }));
    app.get('/', (c) => c.text(`hello ${c.req.ip}`));
    // Through the worker entry, as a deployed worker is reached: it gives c.req.ip from cf-connecting-ip.
    const worker = toWorker(app);
    const ctx = { waitUntil() {}, passThroughOnException() {} };
    const get = async (ip: string) => worker.fetch(new Request('http://example.com/', { headers: { 'cf-connecting-ip': ip } }), {}, ctx);
    for (let i = 2; i >= 0; i--) {
      const res = await get('203.0.113.1');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toBe(`"default";r=${i};t=60`);
    }
    const refused = await get('203.0.113.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect((await get('203.0.113.2')).status).toBe(200);
  });

  it('answers 504 and aborts the signal at the deadline', async () => {
    const app = new App();
    let reason = '';
    app.use(timeout(30));
    app.get('/', async (c) => {
      const signal = timeoutSignal(c);
      await new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => {
          reason = (signal.reason as DOMException).name;
          resolve();
        });
      });
      return c.text('late');
    });
    const res = await app.request('/');
    expect(res.status).toBe(504);
    expect(reason).toBe('TimeoutError');
  });
});
