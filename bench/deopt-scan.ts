// Looks for V8 deopt loops: a function that V8 optimises, throws away and
// optimises again without end, which costs every request that runs through it.
// It starts a bench target on Deno under --trace-deopt, puts each scenario
// under load in bench order (then in reverse, since which routes ran first
// decides the feedback a function was compiled with), and counts the deopts
// per function. One loop on Deno 2.9 cost /query 3 µs per request; see
// docs/design-notes.md.
//
//   npm run bench:deopts -- [--runtime deno|deno-deploy] [--framework rove|hono|raw] [--seconds 1]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startChild, stopChild } from '../dev/proc.ts';
import type { FrameworkId } from './lib/config.ts';
import { firstAnswer } from './lib/http.ts';
import { runLoad } from './lib/load.ts';
import { SCENARIOS } from './lib/scenarios.ts';
import { launchFor } from './lib/targets.ts';

export interface DeoptScanOptions {
  runtime: 'deno' | 'deno-deploy';
  framework: FrameworkId;
  /** Load per scenario and order. */
  seconds: number;
  connections: number;
  pipelining: number;
  onScenario?: (id: string) => void;
}

export interface DeoptScan {
  /** Deopts per function name, over the whole run. */
  counts: Map<string, number>;
  requests: number;
}

// "[bailout (kind: deopt-eager, reason: …): begin. deoptimizing 0x… <JSFunction handle (sfi = …)>"
const DEOPT = /deoptimizing 0x[0-9a-f]+ <JSFunction ([^ >(]*)/;

/** Counts the deopt lines of a trace, by function. Lines may arrive split across chunks. */
export function deoptCounter(): { push(chunk: string): void; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  let partial = '';
  return {
    counts,
    push(chunk) {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      // Keep a long unterminated line bounded: the name is near its start.
      if (partial.length > 4096) partial = partial.slice(0, 4096);
      for (const line of lines) {
        const m = DEOPT.exec(line);
        if (m) counts.set(m[1] || '(anonymous)', (counts.get(m[1] || '(anonymous)') ?? 0) + 1);
      }
    },
  };
}

export async function scanDeopts(o: DeoptScanOptions): Promise<DeoptScan> {
  const workDir = mkdtempSync(join(tmpdir(), 'rove-deopts-'));
  const port = await freePort();
  const launch = launchFor({ runtime: o.runtime, framework: o.framework, variant: 'default', port, workDir });
  // `deno run|serve --v8-flags=--trace-deopt …`
  const args = [launch.args[0]!, '--v8-flags=--trace-deopt', ...launch.args.slice(1)];
  const child = startChild(launch.bin, args, launch.env);
  const counter = deoptCounter();
  child.proc.stdout!.setEncoding('utf8').on('data', (s: string) => counter.push(s));
  let requests = 0;
  try {
    await firstAnswer(port, SCENARIOS.find((s) => s.id === 'test')!.request, child, 10_000, 50);
    const scenarios = SCENARIOS.filter((s) => s.variant === 'default' && s.frameworks.includes(o.framework));
    for (const s of [...scenarios, ...[...scenarios].reverse()]) {
      o.onScenario?.(s.id);
      const r = await runLoad({ port, request: s.request, connections: o.connections, pipelining: o.pipelining, durationS: o.seconds });
      requests += r.requests;
    }
  } finally {
    await stopChild(child);
    rmSync(workDir, { recursive: true, force: true });
  }
  return { counts: counter.counts, requests };
}

/** Functions deoptimised more often than a warm-up explains. */
export function deoptLoops(counts: Map<string, number>, threshold: number): [string, number][] {
  return [...counts].filter(([, n]) => n > threshold).sort((a, b) => b[1] - a[1]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string, def: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1]! : def;
  };
  const runtime = arg('runtime', 'deno') as DeoptScanOptions['runtime'];
  const framework = arg('framework', 'rove') as FrameworkId;
  const result = await scanDeopts({
    runtime,
    framework,
    seconds: Number(arg('seconds', '1')),
    connections: 100,
    pipelining: 10,
    onScenario: (id) => process.stderr.write(`${id} `),
  });
  process.stderr.write('\n');
  console.log(`${runtime} ${framework}: ${result.requests} requests; deopts by function (most first):`);
  for (const [name, n] of [...result.counts].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${String(n).padStart(5)}  ${name}`);
  const loops = deoptLoops(result.counts, 20);
  console.log(loops.length ? `possible deopt loops: ${loops.map(([n]) => n).join(', ')}` : 'no deopt loops');
  process.exitCode = loops.length ? 1 : 0;
}
