// Run by shutdown.test.ts under node, deno and bun: serve examples/threads
// with a two-thread pool, keep one thread busy, close the server, and print
// what happened as one JSON line. The process must then end by itself: a
// thread left alive would keep it running.
import type { ServeHandle, ServeOptions } from '../../adapters/shared/serve-options.ts';
import { makeApp } from '../../examples/threads/app.ts';
import type { ThreadSpawner } from '../../src/threads/index.ts';

const g = globalThis as { Deno?: unknown; Bun?: unknown };
const runtime = g.Deno ? 'deno' : g.Bun ? 'bun' : 'node';

// The example imports 'rove' (types from dist/), the adapters here are the sources: one App either way.
type Serve = (app: any, options?: ServeOptions) => ServeHandle;
let serve: Serve;
let spawner: ThreadSpawner;
if (runtime === 'node') {
  serve = (await import('../../adapters/node/index.ts')).serve;
  spawner = (await import('../../adapters/node/threads.ts')).threads;
} else {
  serve = runtime === 'deno' ? (await import('../../adapters/deno/index.ts')).serve : (await import('../../adapters/bun/index.ts')).serve;
  spawner = (await import('../../adapters/shared/web-threads.ts')).webThreads(runtime);
}

const { app, pool } = makeApp({ size: 2, timeoutMs: 30_000 });

// The runtime's own spawner, counting terminate() calls and thread exits.
let terminated = 0;
let exited = 0;
pool.start({
  ...spawner,
  spawn(module, name, events) {
    const thread = spawner.spawn(module, name, {
      ...events,
      exit(code) {
        exited++;
        events.exit(code);
      },
    });
    return {
      ...thread,
      terminate() {
        terminated++;
        return thread.terminate();
      },
    };
  },
});

const kinds: string[] = [];
app.on((e) => void kinds.push(e.kind));
const listening = new Promise<{ port: number }>((resolve) => app.on('server:listening', (e) => resolve(e.metadata)));
const handle = serve(app, { port: 0, hostname: '127.0.0.1', handleSignals: false, shutdownTimeoutMs: 300, onListen: () => {} });
const { port } = await listening;
const base = `http://127.0.0.1:${port}`;

const cpu = await (await fetch(`${base}/cpu`)).json();
// A task still running when the grace period ends: shutdown must end its thread too.
// Deno cannot stop a thread inside a synchronous loop (see adapters/shared/web-threads.ts), so
// there the loop is short and the process ends once it returns.
const busy = fetch(`${base}/spin?ms=${runtime === 'deno' ? 1500 : 20000}`).then(
  (r) => r.status,
  () => 'connection closed',
);
await new Promise((r) => setTimeout(r, 200));
const before = pool.stats;
await handle.close();
const busyOutcome = await busy;
const afterClose = await pool.run(1, { task: 'cpu' }).then(
  () => 200,
  (e: { status?: number }) => e.status,
);

console.log(
  'RESULT ' +
    JSON.stringify({
      runtime,
      cpu,
      before,
      after: pool.stats,
      terminated,
      exited,
      busyOutcome,
      afterClose,
      kinds: kinds.filter((k) => !k.startsWith('request:')),
    }),
);
