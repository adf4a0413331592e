// The CPU work of a few cold starts, counted rather than timed: each entry is bundled as
// bench:cold bundles it, started under valgrind's callgrind, sent one GET, and stopped once it
// has answered; the figure is the machine instructions its main thread ran by then.
//
//   node --import tsx bench/cold-cost.ts RUNTIME [--runs N] [--bytecode] ENTRY...
//   node --import tsx bench/cold-cost.ts bun bench/cold/hono/bun.ts bench/cold/rove-fetch/bun.ts bench/cold/rove/bun.ts
//
// RUNTIME is node, deno or bun; --bytecode (Bun only) builds each entry with bun build and its
// bytecode cache (bench/lib/bun-bytecode.ts) instead of esbuild. Needs valgrind (Debian:
// apt-get install valgrind). The JIT and the garbage collector's timing are switched off (Bun)
// or made deterministic (V8), so a count repeats to within about 0.1% where a wall-clock start
// on a shared machine varies by 10–20%: it tells which of two builds does less work before its
// first answer, down to a few functions' compilation. It is not a time: an interpreter-only run
// weighs work differently from a real start, so confirm a difference with bench/cold-compare.ts.
// Each entry starts once unrecorded (Deno's code cache), then `--runs` times (default 2), and the
// smallest count is printed.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startChild, stopChild } from '../dev/proc.ts';
import { prepareBunBytecode } from './lib/bun-bytecode.ts';
import { type ColdPlan, type ColdRuntime, entryPlan, launch, type Prepared, prepare } from './lib/cold-start-apps.ts';
import { firstAnswer } from './lib/cold-start-probe.ts';

const RUNTIMES: readonly ColdRuntime[] = ['node', 'deno', 'bun'];
// V8: no optimising tiers, no helper threads, a young generation large enough that a start
// scavenges rarely (Node keeps WebAssembly, which its fetch parser needs: no --jitless there).
// JSC: the interpreter only, and no collection at all.
const V8_FLAGS = ['--no-opt', '--no-sparkplug', '--no-maglev', '--single-threaded', '--max-semi-space-size=32'];
const BUN_ENV = { BUN_JSC_useJIT: '0', BUN_JSC_useGC: '0' };

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv.splice(runsAt, 2)[1]) : 2;
const bytecode = argv.includes('--bytecode');
const [runtime, ...entries] = argv.filter((a) => a !== '--bytecode');
const badRuntime = !RUNTIMES.includes(runtime as ColdRuntime) || (bytecode && runtime !== 'bun');
if (badRuntime || entries.length === 0 || !Number.isInteger(runs) || runs < 1) {
  console.error('usage: node --import tsx bench/cold-cost.ts RUNTIME [--runs N] [--bytecode] ENTRY...   (RUNTIME: node, deno or bun; --bytecode: bun only)');
  process.exit(2);
}

/** The runtime's command line with its determinism flags, under callgrind. */
function counted(plan: ColdPlan, prep: Prepared, port: number, out: string): { bin: string; args: string[]; env: Record<string, string> } {
  const l = launch(plan, prep, port);
  let args = [...l.args];
  let env = l.env;
  if (plan.runtime === 'node') args = [...V8_FLAGS, ...args];
  if (plan.runtime === 'deno') args = [args[0]!, `--v8-flags=${V8_FLAGS.join(',')}`, ...args.slice(1)];
  if (plan.runtime === 'bun') env = { ...env, ...BUN_ENV };
  return { bin: 'valgrind', args: ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${out}`, l.bin, ...args], env };
}

/** One counted start: main-thread instructions up to the first answer. */
async function countOnce(plan: ColdPlan, prep: Prepared, dir: string): Promise<number> {
  for (const f of readdirSync(dir)) if (f.startsWith('cg.')) rmSync(join(dir, f));
  const port = await freePort();
  const cmd = counted(plan, prep, port, join(dir, 'cg.%p'));
  const child = startChild(cmd.bin, cmd.args, cmd.env);
  try {
    const answer = await firstAnswer(child, port, plan.path, performance.now() + 120_000, 20);
    if (answer.status !== 200) throw new Error(`${plan.entry} answered ${answer.status}, not 200`);
    // SIGUSR2 ends every runtime here by its default action (no server handles it), and
    // callgrind writes its counts on the way out: nothing after the answer is counted.
    process.kill(child.pid, 'SIGUSR2');
    await Promise.race([child.done, new Promise((ok) => setTimeout(ok, 30_000))]);
  } finally {
    await stopChild(child);
  }
  const main = readdirSync(dir).find((f) => f === `cg.${child.pid}-01`);
  if (main === undefined) throw new Error(`no callgrind output for ${plan.entry}: ${child.output().slice(-400)}`);
  const m = /^summary: (\d+)/m.exec(readFileSync(join(dir, main), 'utf8'));
  if (!m) throw new Error(`no summary line in ${main}`);
  return Number(m[1]);
}

const work = mkdtempSync(join(tmpdir(), 'rove-cold-cost-'));
try {
  const plans = entries.map((entry, i) => entryPlan(runtime as ColdRuntime, entry, i));
  const build = bytecode ? 'bun build --bytecode' : 'esbuild';
  console.log(`${runtime} (${build}): main-thread instructions to the first answered GET ${plans[0]!.path} (smallest of ${runs}), bundle bytes`);
  for (const plan of plans) {
    const entry = plan.entry;
    const prep = bytecode ? prepareBunBytecode(plan, work) : await prepare(plan, work);
    await countOnce(plan, prep, work); // unrecorded: caches
    const counts: number[] = [];
    for (let r = 0; r < runs; r++) counts.push(await countOnce(plan, prep, work));
    const least = Math.min(...counts);
    const spread = (Math.max(...counts) - least) / least;
    console.log(`  ${entry}: ${(least / 1e6).toFixed(2)} M (runs within ${(spread * 100).toFixed(2)}%), ${prep.bundleBytes} B`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
