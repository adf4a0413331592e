/**
 * What a Redis session read costs in process, against a bare GET from the same client
 * (dev/resp.ts), with a throwaway redis-server (dev/redis.ts: a free
 * loopback port, stopped by its pid). No HTTP: the `session-read-redis` bench row's per-request
 * work, layer by layer, as CPU µs of this process per operation (Redis's own CPU is not in it)
 * and wall µs per operation, with `--inflight` operations in flight (default 16).
 *
 *   node --import tsx bench/session-redis-micro.ts [--ops 20000] [--rounds 5] [--inflight 16]
 *   node_modules/.bin/deno run -A bench/session-redis-micro.ts
 *
 * Cases, each one Redis GET of the same session:
 *   bare GET           client.sendCommand(['GET', key])
 *   bare GET + parse   the same and JSON.parse (what the bench's raw server does with the value)
 *   redisStore.get     rove/session's redisStore(client).get(id)
 *   raw handler        bench/raw/redis.ts's fetch-style handler: cookie, GET, parse, JSON answer
 *   rove bare GET      a Rove route doing the raw handler's work (the framework without session())
 *   rove session()     session() with redisStore on a route whose handler does not touch the session
 *   rove session all   the same session read with one getSession(c).all()
 *   rove session       the bench's Rove route: session() with redisStore, two getSession(c).get()
 */
import process from 'node:process';
import { startRedis } from '../dev/redis.ts';
import { RespClient } from '../dev/resp.ts';
import { addAppLayer } from '../examples/bench/app-layer.ts';
import { App } from '../src/index.ts';
import { getSession, redisStore, session } from '../src/middleware/session/index.ts';
import { withRedisSession } from './raw/redis.ts';
import { REDIS_SESSION_PREFIX, SESSION_SECRET } from './shared/app-layer.ts';

const argv = process.argv.slice(2);
const arg = (name: string, def: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const OPS = arg('ops', 20_000);
const ROUNDS = arg('rounds', 5);
const INFLIGHT = arg('inflight', 16);

type Op = () => Promise<unknown>;

/** The body of an answer that may come at once or later. */
const text = async (res: Response | Promise<Response>) => (await res).text();

/** `OPS` calls of `op`, `INFLIGHT` at a time: CPU µs and wall µs per call. */
async function measure(op: Op): Promise<{ cpu: number; wall: number }> {
  let next = 0;
  const worker = async () => {
    while (next < OPS) {
      next++;
      await op();
    }
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: INFLIGHT }, worker));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { cpu: (cpu.user + cpu.system) / OPS, wall: (wall * 1000) / OPS };
}

function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!.trim())
    .join('; ');
}

async function main() {
  const redis = await startRedis();
  const client = await RespClient.connect(redis.port);
  try {
    // The bench's own Rove app layer, and its raw peer, on one client.
    const rove = new App();
    addAppLayer(rove, { redis: client });
    rove.get('/bare-redis', async (c) => {
      const id = (c.req.header('cookie') ?? '').match(/(?:^|; )sid=([^;]*)/)?.[1];
      const value = id === undefined ? null : await client.sendCommand(['GET', `session:${id}`]);
      if (typeof value !== 'string') return c.json({ title: 'Unauthorized', status: 401 }, 401);
      const data = JSON.parse(value) as { user?: unknown; visits?: unknown };
      return c.json({ user: data.user, visits: data.visits });
    });
    // The session middleware alone (the handler does not touch the session), and one get() instead of two.
    const sessions = session({ keys: [SESSION_SECRET], name: 'rsid', store: redisStore(client, { prefix: REDIS_SESSION_PREFIX }) });
    rove.get('/session-untouched', sessions, (c) => c.json({ user: 'bench-user', visits: 1 }));
    rove.get('/session-all', sessions, async (c) => {
      const all = await getSession(c).all();
      return c.json({ user: all.user, visits: all.visits });
    });
    const raw = withRedisSession(() => new Response('not found', { status: 404 }), client);

    const roveCookie = cookiesOf(await rove.request('/session-redis/start'));
    const rawCookie = cookiesOf(await raw(new Request('http://localhost/session-redis/start')));
    const rawId = rawCookie.slice('sid='.length);
    // The id the Rove cookie seals: the one key of the session store that is not the raw one.
    const keys = (await client.sendCommand(['KEYS', 'session:*'])) as string[];
    const roveKey = keys.find((k) => k !== `session:${rawId}`)!;
    const roveId = roveKey.slice('session:'.length);
    const store = redisStore(client);

    const expectBody = JSON.stringify({ user: 'bench-user', visits: 1 });
    const check = async (res: Response) => {
      const body = await res.text();
      if (body !== expectBody) throw new Error(`unexpected answer ${res.status}: ${body}`);
    };
    await check(await rove.request('/session-redis', { headers: { cookie: roveCookie } }));
    await check(await raw(new Request('http://localhost/session-redis', { headers: { cookie: rawCookie } })));
    await check(await rove.request('/bare-redis', { headers: { cookie: rawCookie } }));

    const cases: [string, Op][] = [
      ['bare GET', () => client.sendCommand(['GET', roveKey])],
      ['bare GET + parse', () => client.sendCommand(['GET', roveKey]).then((v) => JSON.parse(v as string))],
      ['redisStore.get', () => store.get(roveId, undefined as never)],
      ['raw handler', () => text(raw(new Request('http://localhost/session-redis', { headers: { cookie: rawCookie } })))],
      ['rove bare GET', () => text(rove.fetch(new Request('http://localhost/bare-redis', { headers: { cookie: rawCookie } })))],
      ['rove session()', () => text(rove.fetch(new Request('http://localhost/session-untouched', { headers: { cookie: roveCookie } })))],
      ['rove session all', () => text(rove.fetch(new Request('http://localhost/session-all', { headers: { cookie: roveCookie } })))],
      ['rove session', () => text(rove.fetch(new Request('http://localhost/session-redis', { headers: { cookie: roveCookie } })))],
    ];
    const results = new Map<string, { cpu: number[]; wall: number[] }>(cases.map(([name]) => [name, { cpu: [], wall: [] }]));
    for (const [, op] of cases) await measure(op); // warm up every path once
    for (let round = 0; round < ROUNDS; round++) {
      // Cases interleaved round by round, so a busy moment on the machine hits them alike.
      for (const [name, op] of cases) {
        const m = await measure(op);
        results.get(name)!.cpu.push(m.cpu);
        results.get(name)!.wall.push(m.wall);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const spread = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
    const base = median(results.get('bare GET')!.cpu);
    const g = globalThis as { Deno?: { version: { deno: string } }; Bun?: { version: string } };
    const runtime = g.Deno ? `deno ${g.Deno.version.deno}` : g.Bun ? `bun ${g.Bun.version}` : `node ${process.version}`;
    console.log(`${runtime} · ${OPS} ops × ${ROUNDS} rounds · ${INFLIGHT} in flight · medians (min–max over rounds)`);
    console.log(`${'case'.padEnd(18)} ${'CPU µs/op'.padStart(10)} ${'spread'.padStart(12)} ${'× bare GET'.padStart(11)} ${'wall µs/op'.padStart(11)}`);
    for (const [name, r] of results) {
      const cpu = median(r.cpu);
      console.log(
        `${name.padEnd(18)} ${cpu.toFixed(1).padStart(10)} ${spread(r.cpu).padStart(12)} ${`${(cpu / base).toFixed(2)}×`.padStart(11)} ${median(r.wall).toFixed(1).padStart(11)}`,
      );
    }
  } finally {
    client.close();
    await redis.stop();
  }
}

await main();
