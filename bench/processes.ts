// One process against two: runs the bench for rove alternately with
// --processes 1 and --processes N (fresh targets every time, so slow drift of
// the shared machine hits both alike), then writes the comparison with the
// spread of every ratio to tmp/bench/processes.md (docs/processes.md says what to read in it).
//
//   flock /work/bench.lock node --import tsx bench/processes.ts [--rounds 3] [--processes 2]
//       [--runtimes node,deno,bun,deno-deploy] [--scenarios test,test-cpu] [--duration 10] [--warmup 3]
//       [--wait-quiet S] [--out tmp/bench/processes.md] [--from DIR]   (--from: only re-render saved runs)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult, Row } from './lib/result.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const rounds = Number(flag('rounds', '3'));
const n = Number(flag('processes', '2'));
const runtimes = flag('runtimes', 'node,deno,bun,deno-deploy');
const scenarios = flag('scenarios', 'test,test-cpu');
const duration = flag('duration', '10');
const warmup = flag('warmup', '3');
const out = flag('out', 'tmp/bench/processes.md');
const from = flag('from', '');
const waitQuiet = flag('wait-quiet', '60');
const dir = from || join('tmp/bench', `processes-${new Date().toISOString().replace(/[:.]/g, '-')}`);

if (!from) {
  mkdirSync(dir, { recursive: true });
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first, so neither always gets the fresher machine.
    for (const p of r % 2 === 0 ? [1, n] : [n, 1]) {
      const file = join(dir, `p${p}-r${r + 1}.json`);
      console.log(`round ${r + 1}/${rounds}: --processes ${p}`);
      const run = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'bench/run.ts',
          '--frameworks',
          'rove',
          '--runtimes',
          runtimes,
          '--scenarios',
          scenarios,
          '--processes',
          String(p),
          '--duration',
          duration,
          '--warmup',
          warmup,
          '--rounds',
          '1',
          '--wait-quiet',
          waitQuiet,
          // Unpinned: pinning puts every server process on one core, where a second process cannot gain.
          '--pin',
          'off',
          '--out',
          file,
        ],
        { stdio: ['ignore', 'inherit', 'inherit'] },
      );
      if (run.status !== 0) console.error(`bench exited ${run.status}; continuing`);
    }
  }
}

// ---- the comparison ----
type Key = string;
const byKey = new Map<Key, { p1: Row[]; pn: Row[] }>();
let meta: BenchResult['meta'] | undefined;
let config: BenchResult['config'] | undefined;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const m = /^p(\d+)-r\d+\.json$/.exec(file);
  if (!m) continue;
  const result = JSON.parse(readFileSync(join(dir, file), 'utf8')) as BenchResult;
  meta ??= result.meta;
  config ??= result.config;
  for (const row of result.rows) {
    const key = `${row.runtime}/${row.scenario}`;
    const slot = byKey.get(key) ?? { p1: [], pn: [] };
    (m[1] === '1' ? slot.p1 : slot.pn).push(row);
    byKey.set(key, slot);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
/** What other processes on the machine used while these rows were measured: median, and range. */
const others = (rows: Row[]) => {
  const xs = rows.map((r) => r.backgroundCpuPct).filter((x): x is number => typeof x === 'number');
  return xs.length ? `${median(xs).toFixed(0)} (${Math.min(...xs)}–${Math.max(...xs)})` : '?';
};
const fmt = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
const k = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(1)}k` : x.toFixed(0));

/** Median ratio of b over a, and its range over every pairing of rounds: the spread. */
function ratio(a: number[], b: number[]): { mid: number; lo: number; hi: number } {
  return { mid: median(b) / median(a), lo: Math.min(...b) / Math.max(...a), hi: Math.max(...b) / Math.min(...a) };
}

function verdict(r: { lo: number; hi: number }, test: (x: number) => boolean): string {
  if (test(r.lo) && test(r.hi)) return 'met';
  if (!test(r.lo) && !test(r.hi)) return 'missed';
  return 'not established';
}

const lines: string[] = [];
lines.push(
  `| runtime | scenario | req/s, 1 process | req/s, ${n} | ${n} ÷ 1 (spread) | CPU µs/req, 1 | CPU µs/req, ${n} | ${n} ÷ 1 (spread) | others, % of a core (1 / ${n}) | target | |`,
);
lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
for (const [key, { p1, pn }] of [...byKey].sort()) {
  const [runtime, scenario] = key.split('/');
  const ok = (rows: Row[]) => rows.filter((r) => r.ok && r.rps.avg !== null);
  const a = ok(p1);
  const b = ok(pn);
  if (a.length === 0 || b.length === 0) {
    lines.push(`| ${runtime} | ${scenario} | ${a.length}/${p1.length} ok | ${b.length}/${pn.length} ok | – | | | | | | |`);
    continue;
  }
  const rps = ratio(
    a.map((r) => r.rps.avg!),
    b.map((r) => r.rps.avg!),
  );
  const cpu = ratio(
    a.map((r) => r.cpuUsPerReq ?? NaN),
    b.map((r) => r.cpuUsPerReq ?? NaN),
  );
  let target = '';
  let result = '';
  if (scenario === 'test-cpu') {
    target = 'req/s ≥ 1.3×';
    result = verdict(rps, (x) => x >= 1.3);
  } else if (scenario === 'test') {
    target = 'CPU/req ≤ 1.10×';
    result = verdict(cpu, (x) => x <= 1.1);
  }
  lines.push(
    `| ${runtime} | ${scenario} | ${k(median(a.map((r) => r.rps.avg!)))} | ${k(median(b.map((r) => r.rps.avg!)))} | ${fmt(rps.mid)}× (${fmt(rps.lo)}–${fmt(rps.hi)}) | ` +
      `${fmt(median(a.map((r) => r.cpuUsPerReq ?? NaN)), 1)} | ${fmt(median(b.map((r) => r.cpuUsPerReq ?? NaN)), 1)} | ${fmt(cpu.mid)}× (${fmt(cpu.lo)}–${fmt(cpu.hi)}) | ` +
      `${others(a)} / ${others(b)} | ${target} | ${result} |`,
  );
}

const command = `flock /work/bench.lock node --import tsx bench/processes.ts ${args.join(' ')}`.trim();
const doc = `# One process or ${n}: \`serve(app, { processes })\`

What \`serve(app, { processes: processGroup(${n}) })\` (docs/processes.md) gives on this machine, against one
process, for Rove's bench app. Each round starts fresh targets for both settings, one after the other
(the order alternates), so slow drift of the shared machine hits both alike. Figures are medians of
${rounds} rounds; a ratio's spread is its range over every pairing of rounds (lowest of one over highest
of the other, and back). A target is *met* or *missed* only when the whole spread is on one side of it,
otherwise *not established*.

- **/test-cpu** (a 50,000-iteration loop per request) is CPU-bound: with two processes on two cores it
  should approach 2× — the target is 1.3×.
- **/test** is the cheapest request: what matters is that running several processes does not cost more
  CPU per request (the target: within 10%). CPU counts the whole process tree, primary included.
- On deno-deploy the N processes are \`deno serve --parallel\` (\`DENO_JOBS=${n}\`), Deno's own.

${lines.join('\n')}

Machine: ${meta ? `${meta.host.cpus} × ${meta.host.cpuModel ?? 'CPU'}, ${meta.host.os ?? ''}` : '?'}; node ${meta?.versions.node}, deno ${meta?.versions.deno}, bun ${meta?.versions.bun}.
Load: ${config ? `${config.connections} connections, pipelining ${config.pipelining}, ${config.durationS} s after ${config.warmupS} s warm-up` : '?'}, one round per bench run.
The load generator (autocannon) runs on the same two cores as the servers, so two server processes
compete with it: the 2× ceiling is not reachable here. "Others" is the CPU that processes outside the
bench used during each measurement (other people's work on this shared machine), as a percentage of
one core: when it is near 100, one of the two cores was not ours to measure with.

Command: \`${command}\` (runs in ${dir}).
`;
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(out, doc);
console.log(`\n${lines.join('\n')}\n\nwrote ${out}`);
