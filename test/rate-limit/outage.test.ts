// A Redis outage under docs/scaling.md's set-up (node-redis with an error listener): sessions answer
// 500, the rate limit 503, other routes keep serving, and the process does not crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisSkipReason, startRedis } from '../../dev/redis.ts';
import { type Running, start } from '../conformance/servers.ts';

const skip = redisSkipReason();

describe.skipIf(skip !== null)(`a Redis outage on Node${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let redis: RedisServer;
  let server: Running;
  beforeAll(async () => {
    redis = await startRedis();
    server = await start('node', 'test/rate-limit/outage', '/', { REDIS_URL: `redis://127.0.0.1:${redis.port}` });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('gives 500 for sessions and 503 for the rate limit while other routes keep serving', async () => {
    const first = await fetch(`${server.url}/session`);
    expect(await first.json()).toEqual({ visits: 1 });
    const cookie = first.headers.get('set-cookie')!.split(';')[0];
    expect(await (await fetch(`${server.url}/session`, { headers: { cookie } })).json()).toEqual({ visits: 2 });
    expect((await fetch(`${server.url}/limited`)).status).toBe(200);
    await redis.stop();
    for (let i = 0; i < 3; i++) {
      const session = await fetch(`${server.url}/session`, { headers: { cookie } });
      expect(session.status).toBe(500);
      expect(session.headers.get('content-type')).toBe('application/problem+json');
      const limited = await fetch(`${server.url}/limited`);
      expect(limited.status).toBe(503);
      expect(limited.headers.get('retry-after')).toBe('1');
      const plain = await fetch(`${server.url}/`);
      expect(await plain.text()).toBe('ok');
    }
    expect(server.child.exited).toBe(false);
    // The error events were logged, not thrown.
    expect(server.child.output()).toMatch(/redis: /);
  });
});
