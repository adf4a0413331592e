// The framework's own cost per request, without HTTP: the bench app's app.fetch
// against the bare handler (bench/raw/handler.ts) on the same Request objects,
// in one process, alternating, timed by the process's CPU time (not wall time,
// so other processes on the machine matter less). Over HTTP a runtime spends
// 10–60 µs per request of its own; this shows the part the framework adds.
//
//   deno run -A bench/overhead.ts [scenarios=test,chain,params,echo,fortunes,cors-preflight] [requests=10000]
//   bun bench/overhead.ts …        node --import tsx bench/overhead.ts …
import process from 'node:process';
import { createBenchApp } from '../examples/bench/app.ts';
import { OVERHEAD_REQUESTS as REQUESTS } from './lib/overhead-requests.ts';
import { withAppLayer } from './raw/app-layer.ts';
import { handle } from './raw/handler.ts';

const REPEATS = 10;

type Fetch = (r: Request) => Response | Promise<Response>;

async function timeOne(fn: Fetch, make: () => Request, n: number): Promise<number> {
  const reqs = Array.from({ length: n }, make);
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    let r = fn(reqs[i]!);
    if (r instanceof Promise) r = await r;
    await r.text();
  }
  const d = process.cpuUsage(t0);
  return ((d.user + d.system) * 1000) / n;
}

export async function overhead(scenarios: string[], n: number): Promise<{ scenario: string; roveNs: number; rawNs: number }[]> {
  const app = createBenchApp({});
  const fns: Record<'rove' | 'raw', Fetch> = { rove: (r) => app.fetch(r), raw: withAppLayer(handle) };
  const out: { scenario: string; roveNs: number; rawNs: number }[] = [];
  for (const s of scenarios) {
    const make = REQUESTS[s];
    if (!make) throw new Error(`unknown scenario ${s} (known: ${Object.keys(REQUESTS).join(', ')})`);
    const times = { rove: [] as number[], raw: [] as number[] };
    for (let rep = 0; rep < REPEATS; rep++)
      for (const f of rep % 2 ? (['rove', 'raw'] as const) : (['raw', 'rove'] as const)) times[f].push(await timeOne(fns[f], make, n));
    // The lower quartile: the repetitions least disturbed by anything else.
    const q1 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 4)]!;
    out.push({ scenario: s, roveNs: q1(times.rove), rawNs: q1(times.raw) });
  }
  return out;
}

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';
const args = process.argv.slice(2);
const scenarios = (args[0] ?? Object.keys(REQUESTS).join(',')).split(',');
for (const r of await overhead(scenarios, Number(args[1] ?? 10000)))
  console.log(
    `${runtime} ${r.scenario.padEnd(9)} rove ${r.roveNs.toFixed(0).padStart(6)} ns  raw ${r.rawNs.toFixed(0).padStart(6)} ns  rove adds ${(r.roveNs - r.rawNs).toFixed(0).padStart(5)} ns  raw/rove ${(r.rawNs / r.roveNs).toFixed(2)}`,
  );
