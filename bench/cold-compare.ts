// Cold starts of a few entry files on one runtime, bundled and alternated start by start, for a
// side-by-side comparison finer than npm run bench:cold's matrix:
//
//   node --import tsx bench/cold-compare.ts RUNTIME [--bytecode] STARTS ENTRY...
//   node --import tsx bench/cold-compare.ts bun 50 bench/cold/hono/bun.ts bench/cold/rove-fetch/bun.ts bench/cold/rove/bun.ts
//
// RUNTIME is node, deno, bun, deno-deploy or workerd; each entry is bundled as bench:cold bundles
// for that runtime (Bun with --bytecode: by bun build with its bytecode cache), started once
// unrecorded, then STARTS times, round-robin, the first entry rotating each round. Each start is
// timed from spawn to the first answered GET /users/7.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../dev/proc.ts';
import { prepareBunBytecode } from './lib/bun-bytecode.ts';
import { COLD_RUNTIMES, type ColdRuntime, entryPlan, launch, type Prepared, prepare } from './lib/cold-start-apps.ts';
import { coldStart } from './lib/cold-start-probe.ts';

const argv = process.argv.slice(2);
const bytecode = argv.includes('--bytecode');
const [runtime, startsArg, ...entries] = argv.filter((a) => a !== '--bytecode');
const starts = Number(startsArg);
const badRuntime = !COLD_RUNTIMES.includes(runtime as ColdRuntime) || (bytecode && runtime !== 'bun');
if (badRuntime || !Number.isInteger(starts) || starts < 1 || entries.length === 0) {
  console.error('usage: node --import tsx bench/cold-compare.ts RUNTIME [--bytecode] STARTS ENTRY...   (--bytecode: bun only)');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'rove-cold-compare-'));
try {
  const plans = entries.map((entry, i) => entryPlan(runtime as ColdRuntime, entry, i));
  const preps: Prepared[] = [];
  for (const p of plans) preps.push(bytecode ? prepareBunBytecode(p, work) : await prepare(p, work));
  const times: number[][] = plans.map(() => []);
  // Round -1 is the unrecorded start of each entry (page cache, Deno's code cache).
  for (let round = -1; round < starts; round++)
    for (let k = 0; k < plans.length; k++) {
      const i = (k + Math.max(0, round)) % plans.length;
      const port = await freePort();
      const r = await coldStart({ ...launch(plans[i]!, preps[i]!, port), port, path: plans[i]!.path, timeoutMs: 20_000, pollMs: 1 });
      if (r.status !== 200) throw new Error(`${entries[i]} answered ${r.status}, not 200`);
      if (round >= 0) times[i]!.push(r.firstAnswerMs);
    }
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  const build = bytecode ? 'bun build --bytecode' : 'esbuild';
  console.log(`${runtime} (${build}), ${starts} starts each: first answer ms, median (quartiles; min–max), bundle bytes`);
  entries.forEach((entry, i) => {
    const t = times[i]!.sort((a, b) => a - b);
    console.log(`  ${entry}: ${at(t, 0.5)} (${at(t, 0.25)}–${at(t, 0.75)}; ${t[0]!.toFixed(1)}–${t.at(-1)!.toFixed(1)}), ${preps[i]!.bundleBytes} B`);
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
