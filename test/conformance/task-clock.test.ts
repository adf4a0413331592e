// examples/tasks's heartbeat (* * * * *) on the real clock, all at one minute's tick:
// - croner on Node and Bun, Deno.cron under `deno run` and `deno serve` each run the tick once;
// - a group of two Node processes runs it in one of them;
// - two Node servers over one real Redis, with the lock, run it once between them;
// - on Node, Deno and Bun, a SIGTERM while the task runs waits for it and its waitUntil work
//   (300 ms each), and with a 100 ms deadline the work cut off is logged by name.
// One minute boundary serves every case, so the file waits at most about a minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisSkipReason, startRedis } from '../../dev/redis.ts';
import { type Running, type Runtime, start } from './servers.ts';

const skipRedis = redisSkipReason();

interface Watched {
  name: string;
  server: Running;
  /** Everything the process wrote so far, stdout and stderr. */
  text: () => string;
}

function watch(name: string, server: Running): Watched {
  let text = '';
  const add = (chunk: Buffer) => {
    text += chunk.toString('utf8');
  };
  server.child.proc.stdout!.on('data', add);
  server.child.proc.stderr!.on('data', add);
  return { name, server, text: () => text };
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const count = (text: string, line: string) => text.split('\n').filter((l) => l.trim() === line).length;

describe('scheduled tasks on the real clock', () => {
  const all: Watched[] = [];
  let redis: RedisServer | undefined;
  let tick = 0;
  const plain: Watched[] = [];
  const graceful: Watched[] = [];
  const cut: Watched[] = [];
  let group: Watched;
  const locked: Watched[] = [];

  beforeAll(async () => {
    const slow = { HEARTBEAT_MS: '300' };
    const launches: (() => Promise<void>)[] = [];
    const add = (list: Watched[] | null, name: string, runtime: Runtime, env: Record<string, string>) =>
      launches.push(async () => {
        const w = watch(name, await start(runtime, 'examples/tasks', '/', env));
        all.push(w);
        list?.push(w);
        if (name === 'group') group = w;
      });
    for (const runtime of ['node', 'deno', 'bun'] as const) {
      add(graceful, runtime, runtime, slow);
      add(cut, `${runtime}, 100 ms deadline`, runtime, { HEARTBEAT_MS: '1000', SHUTDOWN_MS: '100' });
    }
    add(plain, 'deno-deploy', 'deno-deploy', {});
    add(null, 'group', 'node', { PROCESSES: '2' });
    if (skipRedis === null) {
      redis = await startRedis();
      for (const runtime of ['node', 'bun'] as const) add(locked, `${runtime} with the Redis lock`, runtime, { REDIS_URL: `redis://127.0.0.1:${redis.port}` });
    }
    // Three starts at a time: a dozen at once on two busy cores could miss start()'s 30 s.
    const next = async (): Promise<void> => {
      for (let job = launches.shift(); job !== undefined; job = launches.shift()) await job();
    };
    await Promise.all([next(), next(), next()]);
    // The first boundary after every process is ready (their timers are set by then).
    tick = Math.ceil((Date.now() + 1) / 60_000) * 60_000;
    await until(() => Date.now() > tick, 61_000, 'the minute');
  }, 150_000);

  afterAll(async () => {
    await Promise.all(all.map((w) => w.server.stop()));
    await redis?.stop();
  });

  it('a SIGTERM while the heartbeat runs waits for it and its waitUntil work, on node, deno and bun', async () => {
    await Promise.all(
      graceful.map(async (w) => {
        await until(() => w.text().includes(`heartbeat start ${tick}`), 10_000, `${w.name}'s heartbeat`);
        process.kill(w.server.child.pid, 'SIGTERM');
        await w.server.child.done;
        expect({ name: w.name, saved: count(w.text(), `heartbeat saved ${tick}`), code: w.server.child.exitCode }).toEqual({ name: w.name, saved: 1, code: 0 });
        expect(w.text()).not.toContain('cut off');
      }),
    );
  });

  it('with a 100 ms deadline, the work still running is logged by name', async () => {
    await Promise.all(
      cut.map(async (w) => {
        await until(() => w.text().includes(`heartbeat start ${tick}`), 10_000, `${w.name}'s heartbeat`);
        process.kill(w.server.child.pid, 'SIGTERM');
        await w.server.child.done;
        expect(w.text()).toMatch(/rove: shutdown: 100 ms passed and work is still running, now cut off: .*task heartbeat/);
        expect(w.text()).not.toContain(`heartbeat saved ${tick}`);
      }),
    );
  });

  it('deno serve runs the tick once, through Deno.cron registered by toDeploy', async () => {
    for (const w of plain) {
      await until(() => w.text().includes(`heartbeat saved ${tick}`), 10_000, `${w.name}'s heartbeat`);
      expect(count(w.text(), `heartbeat start ${tick}`)).toBe(1);
    }
  });

  it('a group of two Node processes runs the tick in one of them', async () => {
    await until(() => group.text().includes(`heartbeat saved ${tick}`), 10_000, "the group's heartbeat");
    await new Promise((r) => setTimeout(r, 500)); // a second run would have started by now
    expect(count(group.text(), `heartbeat start ${tick}`)).toBe(1);
  });

  it.skipIf(skipRedis !== null)(`two servers over one Redis run the tick exactly once${skipRedis ? ` (skipped: ${skipRedis})` : ''}`, async () => {
    await until(() => locked.every((w) => w.text().includes(`${tick}`)), 10_000, 'both servers to see the tick');
    await new Promise((r) => setTimeout(r, 500));
    const runs = locked.map((w) => count(w.text(), `heartbeat start ${tick}`));
    const skips = locked.map((w) => count(w.text(), `skipped heartbeat ${tick}: locked`));
    expect(runs.reduce((a, b) => a + b)).toBe(1);
    expect(skips.reduce((a, b) => a + b)).toBe(1);
  });
});
