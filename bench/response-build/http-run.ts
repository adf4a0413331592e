/**
 * Load-tests bench/response-build/server.ts on deno (`deno serve`), bun and workerd, and reports the server's
 * CPU µs per request for each way of building a response: construction plus what the runtime's server does
 * with it. Rounds alternate the cases in one process, so they share its warm-up. Run under the bench lock.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, freePort, processTree, ROOT, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { bundleWorker, workerdConfig } from '../../dev/workerd.ts';
import { runLoad } from '../lib/load.ts';
import { cpuDeltaUs, treeCpuUs } from '../lib/proc-stats.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ENTRY = join(ROOT, 'bench/response-build/server.ts');

function start(runtime: string, port: number, dir: string): Child {
  const env = { PORT: String(port), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
  switch (runtime) {
    case 'deno':
      return startChild(resolveBin('deno'), ['serve', '--allow-env', '--host', '127.0.0.1', '--port', String(port), ENTRY], env);
    case 'bun':
      return startChild(resolveBin('bun'), [ENTRY], env);
    case 'workerd':
      bundleWorker(ENTRY, join(dir, 'worker.js'));
      writeFileSync(join(dir, 'config.capnp'), workerdConfig({ port, module: 'worker.js' }));
      return startChild(resolveBin('workerd'), ['serve', join(dir, 'config.capnp')], env);
    default:
      throw new Error(`--http runs deno, bun or workerd, not ${runtime}`);
  }
}

async function ready(child: Child, port: number): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (child.exited) throw new Error(`server exited:\n${child.output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/set-after/1`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready:\n${child.output()}`);
}

/** Rows of [runtime, path, median CPU µs/req, min, max]. */
export async function runHttp(runtimes: string[], paths: string[], durationS: number, rounds: number): Promise<[string, string, number, number, number][]> {
  const rows: [string, string, number, number, number][] = [];
  for (const runtime of runtimes) {
    const dir = mkdtempSync(join(tmpdir(), 'rove-resp-http-'));
    const port = await freePort();
    const child = start(runtime, port, dir);
    try {
      await ready(child, port);
      const per = new Map<string, number[]>(paths.map((p) => [p, []]));
      const load = (path: string, s: number) =>
        runLoad({ port, request: { method: 'GET', path } as never, connections: 50, pipelining: runtime === 'workerd' ? 1 : 10, durationS: s });
      for (const p of paths) await load(p, 1); // warm every case
      for (let r = 0; r < rounds; r++) {
        for (const p of paths) {
          const pids = processTree(child.pid);
          const before = treeCpuUs(pids);
          const res = await load(p, durationS);
          const us = cpuDeltaUs(before, treeCpuUs(pids));
          if (res.errors > 0 || res.non2xx > 0) throw new Error(`${runtime} ${p}: ${res.errors} errors, ${res.non2xx} non-2xx`);
          per.get(p)!.push(us / res.requests);
        }
      }
      for (const [p, xs] of per) rows.push([runtime, p, median(xs), Math.min(...xs), Math.max(...xs)]);
    } finally {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
