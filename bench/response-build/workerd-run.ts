/**
 * Runs bench/response-build/worker.ts in workerd (the project's bundling and config, dev/workerd.ts)
 * and times each case from outside: a request that builds `iterations` responses, less an empty request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { bundleWorker, workerdConfig } from '../../dev/workerd.ts';
import { allCases } from './cases.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runInWorkerd(iterations: number, rounds: number): Promise<[string, number, number][]> {
  const dir = mkdtempSync(join(tmpdir(), 'rove-resp-micro-'));
  const port = await freePort();
  bundleWorker(join(ROOT, 'bench/response-build/worker.ts'), join(dir, 'worker.js'));
  writeFileSync(join(dir, 'config.capnp'), workerdConfig({ port, module: 'worker.js' }));
  const child = startChild(resolveBin('workerd'), ['serve', join(dir, 'config.capnp')], {});
  const base = `http://127.0.0.1:${port}/`;
  const timed = async (query: string) => {
    const t0 = performance.now();
    const res = await fetch(base + query);
    await res.text();
    if (!res.ok) throw new Error(`${query}: ${res.status}`);
    return performance.now() - t0;
  };
  try {
    for (let i = 0; ; i++) {
      try {
        await timed('?iter=0');
        break;
      } catch (err) {
        if (i > 100 || child.exited) throw new Error(`workerd not ready: ${String(err)}\n${child.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const rows: [string, number, number][] = [];
    for (const [name, n] of allCases()) {
      const q = `?case=${name}&n=${n}`;
      await timed(`${q}&iter=${Math.min(iterations, 10_000)}`); // warm up
      const per: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const empty = await timed('?iter=0');
        per.push((((await timed(`${q}&iter=${iterations}`)) - empty) * 1000) / iterations);
      }
      rows.push([name, n, median(per)]);
    }
    return rows;
  } finally {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  }
}
