// The detail: one table per scenario group (req/s, p99, CPU per request and the ratios of
// every runtime and scenario), with a req/s chart per scenario.
import { type FrameworkId, RUNTIMES } from '../lib/config.ts';
import { SCENARIO_GROUPS, type ScenarioGroup } from '../lib/groups.ts';
import { type BenchResult, findRow, type Row } from '../lib/result.ts';
import { loadReasonLabel } from '../lib/runtime-load.ts';
import { SCENARIOS } from '../lib/scenarios.ts';
import { type Block, type Cell, type Chart, type Column, slug } from './blocks.ts';
import { cpuCell, FRAMEWORK_LABEL, p99Cell, RUNTIME_LABEL, ratioCell, rpsCell } from './cells.ts';
import { DASH } from './format.ts';
import { listenerBlocks, poolBlocks } from './sections.ts';
import { barChart, FRAMEWORK_COLORS } from './svg.ts';

const PEERS = ['hono', 'raw'] as const;

/** The Load column: empty for the run's own load; else the pipelining (and connections, when other) and why. */
function loadCell(rows: (Row | undefined)[], connections: number): Cell {
  const r = rows.find((x) => x?.load);
  if (!r?.load) return '';
  const conns = r.load.connections === connections ? '' : `${r.load.connections} connections, `;
  return `${conns}p${r.load.pipelining}: ${loadReasonLabel(r.load.reason)}`;
}

function groupTable(result: BenchResult, g: ScenarioGroup, frameworks: FrameworkId[]): Block | null {
  const peers = PEERS.filter((f) => frameworks.includes(f) && frameworks.includes('rove'));
  const label = (f: string) => FRAMEWORK_LABEL[f] ?? f;
  const columns: Column[] = [
    { label: 'Scenario' },
    { label: 'Runtime' },
    ...frameworks.map((f) => ({ label: `${label(f)} req/s`, align: 'right' as const })),
    ...frameworks.map((f) => ({ label: `${label(f)} p99 ms`, align: 'right' as const })),
    ...frameworks.map((f) => ({ label: `${label(f)} CPU µs`, align: 'right' as const })),
    ...peers.map((f) => ({ label: `req/s Rove/${label(f)}`, align: 'right' as const })),
    ...peers.map((f) => ({ label: `CPU Rove/${label(f)}`, align: 'right' as const })),
    { label: 'Load' },
  ];
  const table: Cell[][] = [];
  for (const s of g.scenarios)
    for (const rt of RUNTIMES) {
      const mine = frameworks.map((f) => findRow(result.rows, rt, f, s));
      if (mine.every((r) => r === undefined)) continue;
      table.push([
        `\`${s}\``,
        RUNTIME_LABEL[rt] ?? rt,
        ...mine.map(rpsCell),
        ...mine.map(p99Cell),
        ...mine.map(cpuCell),
        ...peers.map((f) => ratioCell(result.rows, rt, s, 'rps', f)),
        ...peers.map((f) => ratioCell(result.rows, rt, s, 'cpu', f)),
        loadCell(mine, result.config.connections),
      ]);
    }
  return table.length ? { kind: 'table', table: { columns, rows: table } } : null;
}

function rpsChart(result: BenchResult, scenario: string, frameworks: FrameworkId[]): string | null {
  const runtimes = RUNTIMES.filter((rt) => result.rows.some((r) => r.runtime === rt && r.scenario === scenario));
  const mine = frameworks.filter((f) => result.rows.some((r) => r.scenario === scenario && r.framework === f));
  if (!result.rows.some((r) => r.scenario === scenario && r.rps.avg !== null)) return null;
  const own = result.rows.some((r) => r.scenario === scenario && r.load);
  return barChart({
    title: `Requests per second: ${scenario}`,
    subtitle: `higher is better · median round · ${result.config.connections} connections, pipelining ${result.config.pipelining}${own ? ' (some runtimes with their own load: see the Load column)' : ''}`,
    groups: runtimes.map((rt) => RUNTIME_LABEL[rt] ?? rt),
    series: mine.map((f) => ({ name: FRAMEWORK_LABEL[f] ?? f, color: FRAMEWORK_COLORS[f] ?? '#999' })),
    values: runtimes.map((rt) => mine.map((f) => findRow(result.rows, rt, f, scenario)?.rps.avg ?? null)),
    unit: 'req/s',
  });
}

/** Level-2 headings of a section become level 3, to sit under its group. */
const nested = (blocks: Block[]): Block[] => blocks.map((b) => (b.kind === 'h' ? { ...b, level: 3 } : b));

export function detailBlocks(result: BenchResult, chartDir: string, frameworks: FrameworkId[]): { blocks: Block[]; charts: Chart[] } {
  const blocks: Block[] = [
    { kind: 'h', level: 2, text: 'Detail', id: 'detail' },
    {
      kind: 'p',
      text: `Per scenario and runtime: req/s (average over the measured window, median round), p99 latency, and the server's CPU time per request (µs; it does not depend on whether the server or the load generator is the bottleneck). Ratios read "higher is better" for Rove: req/s as Rove's over the peer's, CPU as the peer's µs over Rove's; median round with the lowest and highest in brackets. **Bold**: misses a stated target in every round ([methods.md](methods.md#targets)). † a side had errors, timeouts or non-2xx responses under load. ${DASH}: no such row. Load: the rows that ran with other settings than the run's ${result.config.connections} connections, pipelining ${result.config.pipelining}, and why (p1: unpipelined; database: as TechEmpower runs them; workerd and Bun: runtime limits, see [methods.md](methods.md#known-runtime-limits)).`,
    },
  ];
  const charts: Chart[] = [];
  for (const g of SCENARIO_GROUPS) {
    const table = groupTable(result, g, frameworks);
    if (!table) continue;
    blocks.push({ kind: 'h', level: 3, text: g.label, id: slug(g.label) }, { kind: 'p', text: `${g.about[0]!.toUpperCase()}${g.about.slice(1)}.` }, table);
    if (g.id === 'real-work') blocks.push(...nested(poolBlocks(result)), ...nested(listenerBlocks(result)));
    for (const s of g.scenarios) {
      // A pool-p99 row's req/s is its light probe's, capped by the probe itself: no chart of it.
      if (SCENARIOS.find((x) => x.id === s)?.method === 'pool-p99') continue;
      const svg = rpsChart(result, s, frameworks);
      if (!svg) continue;
      charts.push({ file: `rps-${s}.svg`, svg });
      blocks.push({ kind: 'chart', file: `${chartDir}/rps-${s}.svg`, alt: `Requests per second for ${s} per runtime and framework` });
    }
  }
  return { blocks, charts };
}
