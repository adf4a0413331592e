// Turns a run into a document (headings, paragraphs, tables, charts) that
// the Markdown and HTML writers render the same way.

import { ALL_FRAMEWORKS, type FrameworkId, RUNTIMES } from '../lib/config.ts';
import { type BenchResult, findRow, type Metric, median, type Row, ratioHasErrors } from '../lib/result.ts';
import { SCENARIOS } from '../lib/scenarios.ts';
import { roundRatios, spreadOf, spreadText, targetOf, verdict } from '../lib/spread.ts';
import { baselineBlocks } from './baseline-section.ts';
import { type Block, type Cell, type Chart, type Column, type Doc, slug, type Table, type Tone } from './blocks.ts';
import { bundleSizeBlocks } from './bundle-section.ts';
import { compact, DASH, fixed, int, ms } from './format.ts';
import { listenerBlocks, methodLines, poolBlocks } from './sections.ts';
import { barChart, FRAMEWORK_COLORS } from './svg.ts';

export type { Block, Cell, Chart, Column, Doc, Table, Tone };
export { bundleSizeBlocks, slug };

const RUNTIME_LABEL: Record<string, string> = {
  node: 'node',
  deno: 'deno',
  bun: 'bun',
  'deno-deploy': 'deno-deploy',
  workerd: 'workerd',
};

/** Colour for a ratio cell; `lowerIsBetter` for CPU per request. */
export function ratioTone(r: number | null, target: number | null, lowerIsBetter: boolean): Tone | undefined {
  if (r === null) return undefined;
  const v = lowerIsBetter ? 1 / r : r;
  if (target !== null) return v >= target ? 'good' : v >= target - 0.1 ? 'warn' : 'bad';
  return v >= 0.95 ? 'good' : v >= 0.8 ? 'warn' : 'bad';
}

function ratioCell(rows: readonly Row[], runtime: string, scenario: string, metric: Metric, over: FrameworkId): Cell {
  // Per-round ratios, higher is better for Rove in both metrics (CPU: the peer's µs over Rove's).
  const s = spreadOf(roundRatios(rows, runtime, scenario, metric, over));
  if (s === null) return DASH;
  const target = targetOf(runtime, scenario, metric, over);
  // † marks a ratio where a side had errors under load.
  const dagger = ratioHasErrors(rows, runtime, scenario, over) ? '†' : '';
  const text = spreadText(s) + dagger;
  if (target === null) return { text, tone: ratioTone(s.median, null, false) };
  // Bold marks a miss of a stated target (visible in plain Markdown too); a spread
  // across the target is neither a pass nor a miss.
  const v = verdict(s, target);
  if (v === 'not established') return { text: `${text} not established`, tone: 'warn' };
  return { text, tone: v === 'met' ? 'good' : 'bad', strong: v === 'missed' };
}

function present<T>(all: readonly T[], used: Iterable<string>, id: (t: T) => string): T[] {
  const set = new Set(used);
  return all.filter((t) => set.has(id(t)));
}

function scenarioLine(id: string): string {
  const s = SCENARIOS.find((x) => x.id === id);
  if (!s) return '';
  const req = `\`${s.request.method} ${s.request.path}\``;
  return `${s.title}: ${req}${s.request.body ? ' with a JSON body' : ''}${s.variant === 'listener' ? ', app started with one empty event listener' : s.variant === 'workers' ? ', app started with the worker pool' : ''}.`;
}

/**
 * Hand-written observations kept beside the JSON (FILE.notes.md) survive
 * re-rendering. Only a small subset is understood: `##`/`###` headings,
 * `- ` lists and paragraphs separated by blank lines.
 */
export function parseNotes(text: string): Block[] {
  const out: Block[] = [];
  for (const chunk of text.replace(/\r\n/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    const head = /^(#{2,3}) (.*)$/.exec(lines[0]!);
    if (head) {
      out.push({ kind: 'h', level: head[1]!.length as 2 | 3, text: head[2]!, id: slug(head[2]!) });
      lines.shift();
      if (lines.length === 0) continue;
    }
    if (lines[0]!.startsWith('- ')) {
      const items: string[] = [];
      for (const l of lines) {
        if (l.startsWith('- ')) items.push(l.slice(2).trim());
        else items[items.length - 1] += ` ${l.trim()}`;
      }
      out.push({ kind: 'list', items });
    } else out.push({ kind: 'p', text: lines.map((l) => l.trim()).join(' ') });
  }
  return out;
}

export function buildDocument(result: BenchResult, chartDir: string, notes?: string): Doc {
  const { meta, config, rows } = result;
  const runtimes = present(
    RUNTIMES,
    rows.map((r) => r.runtime),
    (r) => r,
  );
  const frameworks = present(
    ALL_FRAMEWORKS,
    rows.map((r) => r.framework),
    (f) => f,
  );
  const scenarioIds = present(
    SCENARIOS,
    rows.map((r) => r.scenario),
    (s) => s.id,
  ).map((s) => s.id);
  const blocks: Block[] = [];
  const charts: Chart[] = [];
  const h = (level: 1 | 2 | 3, text: string) => blocks.push({ kind: 'h', level, text, id: slug(text) });
  const p = (text: string) => blocks.push({ kind: 'p', text });
  const chart = (file: string, alt: string, svg: string) => {
    charts.push({ file, svg });
    blocks.push({ kind: 'chart', file: `${chartDir}/${file}`, alt });
  };
  const series = frameworks.map((f) => ({ name: f, color: FRAMEWORK_COLORS[f] ?? '#999' }));
  const settings = `${config.connections} connections, pipelining ${config.pipelining}, ${config.durationS} s measured after ${config.warmupS} s warm-up${config.rounds > 1 ? `, median of ${config.rounds} rounds` : ''}`;

  const title = `Rove load test: ${config.profile} profile`;
  h(1, title);
  p(
    `One bench app written with Rove (\`examples/bench\`), the same routes in idiomatic Hono (\`bench/hono\`) and as a bare runtime server (\`bench/raw\`, the ceiling), run on each runtime with identical [autocannon](https://github.com/mcollina/autocannon) settings: ${settings}. Measured ${meta.date.slice(0, 16).replace('T', ' ')} UTC.`,
  );
  blocks.push({
    kind: 'list',
    items: [
      `Machine: ${meta.host.cpus} × ${meta.host.cpuModel}, ${meta.host.memGiB} GiB, ${meta.host.os}. ${meta.pinning ? 'The server and the load generator run pinned to separate cores (below); other processes on the machine may use either.' : `The load generator and the server share the ${meta.host.cpus} cores.`}`,
      `Versions: ${Object.entries(meta.versions)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`,
      ...(meta.command ? [`Command: \`${meta.command}\``] : []),
      ...backgroundLine(rows, config.waitQuietS),
      ...methodLines(result),
    ],
  });
  p(
    "Absolute req/s move from run to run on a shared 2-core machine, and on the fastest targets autocannon itself (single-threaded) is the limit. Read the **ratios** measured in the same run, and **CPU per request**: the server process tree's own CPU time (utime + stime from /proc) over the measured window divided by the requests completed, which does not depend on which side is the bottleneck.",
  );

  if (notes) blocks.push(...parseNotes(notes));
  blocks.push(...baselineBlocks(result));

  // Headline: /test on every runtime, throughput then CPU per request.
  if (scenarioIds.includes('test')) {
    h(2, 'Headline: GET /test');
    const withRove = frameworks.includes('rove');
    const peers = (['raw', 'hono'] as const).filter((f) => withRove && frameworks.includes(f));
    const table = (metric: Metric, unit: string, cell: (r: Row | undefined) => Cell): Table => ({
      columns: [
        { label: 'Runtime' },
        ...frameworks.map((f) => ({ label: `${f} ${unit}`, align: 'right' as const })),
        ...peers.map((f) => ({ label: `rove/${f}`, align: 'right' as const })),
      ],
      rows: runtimes.map((rt) => [
        RUNTIME_LABEL[rt] ?? rt,
        ...frameworks.map((f) => cell(findRow(rows, rt, f, 'test'))),
        ...peers.map((f) => ratioCell(rows, rt, 'test', metric, f)),
      ]),
    });
    blocks.push({ kind: 'table', table: table('rps', 'req/s', okInt) });
    p(
      'Targets: Rove ≥ 0.95× raw on deno, bun and workerd and ≥ 0.90× raw on node for `/test` req/s; Rove ≥ 1.0× Hono on every runtime and scenario. A ratio in **bold** misses its target in every round; "not established" means the rounds disagree about it; † marks a ratio where a side had errors, timeouts or non-2xx responses under load (its row says which).',
    );
    blocks.push({ kind: 'table', table: table('cpu', 'CPU µs/req', okCpu) });
    p(
      "Server CPU time per request. The ratios divide the peer's CPU per request by Rove's, so, as for req/s, a ratio above 1.00× means Rove spends less CPU per request than the peer.",
    );
    chart('rps-test.svg', 'Requests per second for GET /test per runtime and framework', rpsChart(result, 'test', runtimes, frameworks, series));
  }

  // Ratio matrices.
  const ratioTables: [string, Metric, FrameworkId, string][] = [
    ['req/s, rove/raw', 'rps', 'raw', "Share of the bare runtime's throughput that Rove keeps (higher is better)."],
    ['req/s, rove/hono', 'rps', 'hono', "Rove's throughput relative to Hono (higher is better)."],
    [
      'CPU per request, rove/raw',
      'cpu',
      'raw',
      "The bare runtime's server CPU per request divided by Rove's (higher is better: 0.90× means Rove spends 1/0.90 = 1.11 times raw's CPU per request). Target: at least 0.90× on every scenario and runtime (0.95× for workerd's `/test`).",
    ],
    ['CPU per request, rove/hono', 'cpu', 'hono', "Hono's server CPU per request divided by Rove's (higher is better; target at least 1.00×)."],
  ];
  if (frameworks.includes('rove') && (frameworks.includes('raw') || frameworks.includes('hono'))) {
    h(2, 'Ratios per runtime and scenario');
    p(
      `Each ratio is the median of the per-round ratios (round i of every framework ran back to back)${config.rounds > 1 ? `, with the lowest and highest round in brackets; "not established" marks a target that some rounds meet and others miss` : '; one round shows no spread, so treat small gaps as noise'}. **Bold** misses its target in every round. † a side had errors, timeouts or non-2xx responses under load; the ratio compares what completed. – not measured (failed check, did not start, or no such row).`,
    );
    for (const [label, metric, over, note] of ratioTables) {
      if (!frameworks.includes(over)) continue;
      h(3, label);
      p(note);
      const cols: Column[] = [{ label: 'Scenario' }, ...runtimes.map((r) => ({ label: RUNTIME_LABEL[r] ?? r, align: 'right' as const }))];
      const trs: Cell[][] = [];
      for (const s of scenarioIds) {
        const def = SCENARIOS.find((x) => x.id === s);
        if (!def?.frameworks.includes(over)) continue;
        trs.push([`\`${s}\``, ...runtimes.map((rt) => ratioCell(rows, rt, s, metric, over))]);
      }
      blocks.push({ kind: 'table', table: { columns: cols, rows: trs } });
    }
  }

  blocks.push(...poolBlocks(result), ...listenerBlocks(result));

  // One section per scenario, like the seed write-ups.
  h(2, 'Results per scenario');
  p(
    "Req/s are autocannon's per-second samples (average and median); latency is per request, with pipelining. RSS is the peak resident memory of the server process tree during the measured window.",
  );
  for (const s of scenarioIds) {
    h(3, `${s}`);
    const line = scenarioLine(s);
    if (line) p(line);
    const cols: Column[] = [
      { label: 'Runtime' },
      { label: 'Framework' },
      { label: 'Req/s avg', align: 'right' },
      { label: 'Req/s p50', align: 'right' },
      { label: 'Latency avg', align: 'right' },
      { label: 'p50', align: 'right' },
      { label: 'p97.5', align: 'right' },
      { label: 'p99', align: 'right' },
      { label: 'max', align: 'right' },
      { label: 'CPU µs/req', align: 'right' },
      { label: 'RSS MB', align: 'right' },
      { label: 'Requests', align: 'right' },
      { label: "Others' CPU", align: 'right' },
      { label: 'Result' },
    ];
    const trs: Cell[][] = [];
    for (const rt of runtimes)
      for (const f of frameworks) {
        const r = findRow(rows, rt, f, s);
        if (!r) continue;
        const measured = r.rps.avg !== null;
        trs.push([
          RUNTIME_LABEL[rt] ?? rt,
          f,
          int(r.rps.avg),
          int(r.rps.p50),
          ms(r.latencyMs.avg),
          ms(r.latencyMs.p50, 0),
          ms(r.latencyMs.p97_5, 0),
          ms(r.latencyMs.p99, 0),
          ms(r.latencyMs.max, 0),
          fixed(r.cpuUsPerReq, 1),
          fixed(r.rssPeakMB, 0),
          int(r.requests),
          r.backgroundCpuPct == null ? DASH : `${r.backgroundCpuPct}%`,
          r.ok ? 'ok' : { text: measured ? 'errors under load' : 'failed', tone: 'bad' },
        ]);
      }
    blocks.push({ kind: 'table', table: { columns: cols, rows: trs } });
    if (rows.some((r) => r.scenario === s && r.rps.avg !== null)) {
      // Only the frameworks that have the scenario get a bar (no "n/a" for rows that cannot exist).
      const mine = frameworks.filter((f) => rows.some((r) => r.scenario === s && r.framework === f));
      const own = series.filter((x) => mine.includes(x.name as FrameworkId));
      // A pool-p99 row's req/s is its light probe's, capped by the probe itself: no chart of it.
      const probeOnly = SCENARIOS.find((x) => x.id === s)?.method === 'pool-p99';
      if (s !== 'test' && !probeOnly) chart(`rps-${s}.svg`, `Requests per second for ${s}`, rpsChart(result, s, runtimes, mine, own));
      chart(`latency-${s}.svg`, `Latency for ${s}`, latencyChart(result, s, runtimes, mine, own));
    }
  }

  // Startup and memory per target.
  h(2, 'Cold start and memory');
  p(
    'Cold start: from spawning the runtime binary to the first correct answer to `GET /test` (median over the targets started; node and workerd exclude the esbuild bundling, the node worker-pool variant and rove-fs include loading tsx). Peak RSS: the highest per-scenario peak of the process tree.',
  );
  {
    const cols: Column[] = [
      { label: 'Runtime' },
      ...frameworks.flatMap((f) => [
        { label: `${f} cold start`, align: 'right' as const },
        { label: `${f} peak RSS`, align: 'right' as const },
      ]),
    ];
    const trs: Cell[][] = runtimes.map((rt) => [
      RUNTIME_LABEL[rt] ?? rt,
      ...frameworks.flatMap((f) => {
        const mine = rows.filter((r) => r.runtime === rt && r.framework === f && SCENARIOS.find((x) => x.id === r.scenario)?.variant === 'default');
        const cold = mine.map((r) => r.coldStartMs).filter((v): v is number => v !== null);
        const rss = mine.map((r) => r.rssPeakMB).filter((v): v is number => v !== null);
        return [cold.length ? ms(median(cold), 0) : DASH, rss.length ? `${Math.max(...rss).toFixed(0)} MB` : DASH];
      }),
    ]);
    blocks.push({ kind: 'table', table: { columns: cols, rows: trs } });
  }

  if (result.bundleSizes) blocks.push(...bundleSizeBlocks(result.bundleSizes));

  const failed = rows.filter((r) => !r.ok);
  h(2, 'Rows that failed or were not measured');
  if (failed.length === 0) p('None: every target started, answered every check correctly and served the load without errors.');
  else {
    p(
      'A row fails when its target did not start, answered a check wrongly (then it is not measured) or had errors, timeouts or non-2xx responses under load. Scenarios a Rove feature is still missing for answer 501 naming the feature; they are never faked.',
    );
    blocks.push({ kind: 'list', items: failed.map((r) => `${r.runtime} · ${r.framework} · \`${r.scenario}\`: ${r.error ?? 'failed'}`) });
  }

  h(2, 'Method');
  blocks.push({
    kind: 'list',
    items: [
      'Each target is a direct child process of the runtime binary resolved inside node_modules (never npx/npm): `node` on an esbuild bundle of the entry (its worker-pool variant and rove-fs, which load modules from disk as they run, through `node --import tsx`), `deno run`, `bun`, `deno serve` (what Deno Deploy runs) and `workerd serve` with a generated config and an esbuild bundle of the worker module (wrangler dev and Miniflare add a development proxy, so workerd is loaded directly).',
      "Per runtime, the three frameworks' servers are started one after the other (cold start), every scenario is checked once (status, content-type, body; a wrong answer fails the row), then each scenario is measured for rove, hono and raw back to back, so a ratio compares figures taken seconds apart. Servers are stopped by pid at the end, on errors and on Ctrl-C.",
      'All three apps do the same work per request: JSON is serialised per request, `/params` validates with the same zod schema (raw calls `safeParse` itself), `/chain` runs five layers (request id, ring-buffer log, JWT payload decode, rate-limit counter, `x-powered-by`), views escape their output.',
      'Scenarios only Rove has (`test-worker`: the worker pool; `listener`: one empty event listener; `pool-p99-*`: `/test` under a saturated CPU route) have no peer rows.',
      'Repeated rounds and their spread, core pinning, the load workerd sustains, the listener cost inside one process and the pool measured as p99: [methods.md](methods.md).',
    ],
  });
  h(2, 'Reproduce');
  blocks.push({
    kind: 'code',
    text: `npm run bench -- --profile ${config.profile} --out docs/benchmarks/results.json${config.rounds > 1 ? ` --rounds ${config.rounds}` : ''}\n# re-render this report from its JSON\nnpm run bench -- --report docs/benchmarks/results.json${result.bundleSizes ? '\n# the bundle sizes alone (--into FILE.json stores them in a run)\nnpm run bench:size' : ''}`,
  });
  return { title, blocks, charts };
}

/** How busy the shared machine was with other work while the rows were measured. */
function backgroundLine(rows: readonly Row[], waitQuietS: number | undefined): string[] {
  const bg = rows.map((r) => r.backgroundCpuPct).filter((v): v is number => v != null);
  if (bg.length === 0) return [];
  const busy = bg.filter((v) => v >= 25).length;
  return [
    `Other processes on the machine used a median ${median(bg).toFixed(0)}% of one core during the measured windows (max ${Math.max(...bg)}%; ${busy} of ${bg.length} rows above 25%, see "Others' CPU" per row)${waitQuietS ? `; before each measurement the runner waited up to ${waitQuietS} s for them to go quiet` : ''}.`,
  ];
}

function okInt(r: Row | undefined): Cell {
  if (!r) return DASH;
  if (!r.ok) return { text: r.rps.avg === null ? 'failed' : `${int(r.rps.avg)} (errors)`, tone: 'bad' };
  return int(r.rps.avg);
}

function okCpu(r: Row | undefined): Cell {
  if (!r || r.cpuUsPerReq === null) return DASH;
  return fixed(r.cpuUsPerReq, 1);
}

function rpsChart(result: BenchResult, scenario: string, runtimes: string[], frameworks: string[], series: { name: string; color: string }[]): string {
  return barChart({
    title: `Requests per second: ${scenario}`,
    subtitle: `higher is better · bar: average req/s · ${loadSettings(result, scenario)}, ${result.config.durationS} s · ${runDates(result)}`,
    groups: runtimes,
    series,
    values: runtimes.map((rt) => frameworks.map((f) => okValue(findRow(result.rows, rt, f, scenario), (r) => r.rps.avg))),
    unit: 'req/s',
  });
}

function latencyChart(result: BenchResult, scenario: string, runtimes: string[], frameworks: string[], series: { name: string; color: string }[]): string {
  return barChart({
    title: `Latency: ${scenario}`,
    subtitle: `lower is better · bar, number inside it: average · tick, number above it: p99 · ${loadText(result, scenario)}`,
    groups: runtimes,
    series,
    values: runtimes.map((rt) => frameworks.map((f) => okValue(findRow(result.rows, rt, f, scenario), (r) => r.latencyMs.avg))),
    markers: runtimes.map((rt) => frameworks.map((f) => okValue(findRow(result.rows, rt, f, scenario), (r) => r.latencyMs.p99))),
    markerLabel: 'p99 (tick)',
    unit: 'ms',
  });
}

/**
 * The day of the run, or the first and last day when rows were measured again and merged in
 * (the command line records each merge's day).
 */
export function runDates(result: BenchResult): string {
  const days = [result.meta.date.slice(0, 10), ...(result.meta.command?.match(/\d{4}-\d{2}-\d{2}/g) ?? [])].sort();
  return days[0] === days[days.length - 1] ? days[0] : `${days[0]} to ${days[days.length - 1]}`;
}

/** The load a scenario's latency was measured under. */
function loadText(result: BenchResult, scenario: string): string {
  const def = SCENARIOS.find((x) => x.id === scenario);
  if (def?.method === 'pool-p99' && def.saturate)
    return `GET /test from 10 connections while ${result.config.connections} connections saturate ${def.saturate.method} ${def.saturate.path}`;
  return loadSettings(result, scenario);
}

/**
 * The run's load, with the runtimes that ran this scenario with their own grouped by setting
 * ("… (workerd: 100 connections, pipelining 1)"); when every runtime ran with the same own
 * setting, that setting alone. Groups are joined with " · ", where a chart's subtitle may wrap.
 */
function loadSettings(result: BenchResult, scenario: string): string {
  const base = `${result.config.connections} connections, pipelining ${result.config.pipelining}`;
  const measured = new Set<string>();
  const own = new Map<string, Set<string>>();
  for (const r of result.rows) {
    if (r.scenario !== scenario) continue;
    measured.add(r.runtime);
    if (!r.load) continue;
    const setting = `${r.load.connections} connections, pipelining ${r.load.pipelining}`;
    own.set(setting, (own.get(setting) ?? new Set()).add(r.runtime));
  }
  const groups = [...own];
  if (groups.length === 1 && groups[0][1].size === measured.size) return groups[0][0];
  return groups.length ? `${base} (${groups.map(([setting, rts]) => `${[...rts].join(', ')}: ${setting}`).join(' · ')})` : base;
}

/** Charts show every measured row; the tables say which had errors under load. */
function okValue(r: Row | undefined, pick: (r: Row) => number | null): number | null {
  return r && r.rps.avg !== null ? pick(r) : null;
}

export { compact };
