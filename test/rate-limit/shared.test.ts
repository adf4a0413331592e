// Several server processes (Node, Deno and Bun) share one Redis: a login on one is seen by the
// others, and a limit of N requests a minute holds for all of them together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisSkipReason, startRedis } from '../../dev/redis.ts';
import { type Running, start } from '../conformance/servers.ts';

const skip = redisSkipReason();
const SECRET = 'shared-redis-test-secret-0123456789abcdef';

describe.skipIf(skip !== null)(`processes sharing one Redis${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let redis: RedisServer;
  const servers: Running[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_PORT: String(redis.port), SESSION_SECRET: SECRET };
    for (const runtime of ['node', 'deno', 'bun'] as const) servers.push(await start(runtime, 'test/rate-limit/shared', '/', env));
  }, 90_000);
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await redis?.stop();
  });

  it('each server is its own process and runtime', async () => {
    const names = await Promise.all(servers.map(async (s) => (await fetch(s.url)).text()));
    expect(names).toEqual(['node', 'deno', 'bun']);
    expect(new Set(servers.map((s) => s.child.pid)).size).toBe(3);
  });

  it('a login on one process is seen by the others, and a logout on another ends it everywhere', async () => {
    const [node, deno, bun] = servers;
    const login = await fetch(`${node.url}/account/login`, { method: 'POST' });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    for (const server of [deno, bun, node]) {
      const me = (await (await fetch(`${server.url}/account/me`, { headers: { cookie } })).json()) as { user: string; on: string };
      expect(me).toEqual({ user: 'ann@node', on: server.runtime });
    }
    await fetch(`${bun.url}/account/logout`, { method: 'POST', headers: { cookie } });
    for (const server of servers) {
      const me = (await (await fetch(`${server.url}/account/me`, { headers: { cookie } })).json()) as { user: string | null };
      expect(me.user).toBeNull();
    }
  });

  it('a limit of 5 requests a minute is 5 in total across the processes, concurrent or not', async () => {
    // 12 requests at once, spread over the three processes: exactly 5 get through.
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await fetch(`${servers[i % 3].url}/limited`);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(answers.filter((s) => s === 200).length).toBe(5);
    expect(answers.filter((s) => s === 429).length).toBe(7);
    for (const server of servers) {
      const res = await fetch(`${server.url}/limited`);
      expect(res.status).toBe(429);
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
