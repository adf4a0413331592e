// serve({ processes: processGroup(2) }) on Node (node:cluster, docs/processes.md) with the Redis stores: the two
// children share one Redis, so a login on one is seen by the other and a limit of N holds in total.
// Which child takes a connection is the primary's or the kernel's choice, so every request here
// opens a fresh connection and the assertions are on totals.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisSkipReason, startRedis } from '../../dev/redis.ts';
import { type Running, start } from '../conformance/servers.ts';

const skip = redisSkipReason();
const SECRET = 'cluster-redis-test-secret-0123456789abcdef';
const LIMIT = 5;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a connection of its own (no keep-alive agent), so the next may land on the other child. */
function send(url: string, method = 'GET', headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, connection: 'close' }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(skip !== null)(`serve({ processes: processGroup(2) }) sharing one Redis${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let redis: RedisServer;
  let server: Running;
  beforeAll(async () => {
    redis = await startRedis();
    server = await start('node', 'test/rate-limit/cluster', '/', { REDIS_PORT: String(redis.port), SESSION_SECRET: SECRET });
    // Both children listening: wait until two different pids have answered (or give up and let the tests say so).
    const deadline = Date.now() + 15_000;
    const seen = new Set<string>();
    while (seen.size < 2 && Date.now() < deadline) seen.add((await send(`${server.url}/`)).body);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('two children answer on the one port', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 20; i++) names.add((await send(`${server.url}/`)).body);
    expect([...names].every((n) => /^node:\d+$/.test(n))).toBe(true);
    expect(names.size).toBe(2);
    expect(names.has(`node:${server.child.pid}`)).toBe(false); // the primary serves nothing
  });

  it('a login on one child is seen on every request, by both children', async () => {
    const login = await send(`${server.url}/account/login`, 'POST');
    expect(login.status).toBe(200);
    const setCookie = login.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)!.split(';')[0]!;
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () => JSON.parse((await send(`${server.url}/account/me`, 'GET', { cookie })).body) as { user: string; on: string }),
    );
    const users = new Set(answers.map((a) => a.user));
    expect(users.size).toBe(1);
    const [user] = users;
    expect(user).toMatch(/^ann@node:\d+$/);
    // Seen by both children: the one that logged in and the other.
    const on = new Set(answers.map((a) => a.on));
    expect(on.size).toBe(2);
    expect(on.has(user!.slice('ann@'.length))).toBe(true);
    // A logout on either ends it on both.
    await send(`${server.url}/account/logout`, 'POST', { cookie });
    const after = await Promise.all(
      Array.from({ length: 10 }, async () => JSON.parse((await send(`${server.url}/account/me`, 'GET', { cookie })).body) as { user: string | null }),
    );
    expect(after.every((a) => a.user === null)).toBe(true);
  });

  it(`a limit of ${LIMIT} a minute is ${LIMIT} in total across both children, then 429s`, async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, () => send(`${server.url}/limited`)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBe(LIMIT);
    expect(answers.filter((a) => a.status === 429).length).toBe(16 - LIMIT);
    // The successes came from both children, and the limit still holds for each of them afterwards.
    const later = await Promise.all(Array.from({ length: 10 }, () => send(`${server.url}/limited`)));
    expect(later.every((a) => a.status === 429)).toBe(true);
    for (const a of later) {
      expect(a.headers['ratelimit-policy']).toBe(`"default";q=${LIMIT};w=60`);
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
