// The top of the report: what produced it (commit, date, command), and the summary,
// runtime × scenario group, Rove over Hono and over raw.
import { RUNTIMES } from '../lib/config.ts';
import { SCENARIO_GROUPS } from '../lib/groups.ts';
import type { BenchResult, Metric } from '../lib/result.ts';
import { groupSpread } from '../lib/spread.ts';
import type { Block, Cell, Chart } from './blocks.ts';
import { RUNTIME_LABEL, spreadCell } from './cells.ts';
import { DASH } from './format.ts';
import { barChart } from './svg.ts';

export const RUNTIME_COLORS: Record<string, string> = { node: '#16a34a', deno: '#111827', bun: '#d97706', 'deno-deploy': '#0891b2', workerd: '#ea580c' };

/** "abc1234 (clean working tree)"; the full hash goes in the JSON. */
export function commitText(result: BenchResult): string {
  const git = result.meta.git;
  if (!git) return `rove ${result.meta.versions.rove ?? 'unknown'}`;
  return `\`${git.commit.slice(0, 12)}\`${git.dirty ? ' with uncommitted changes (the figures may not match the commit)' : ' (clean working tree)'}`;
}

/** The three lines that say what produced the report. */
export function provenanceBlock(result: BenchResult): Block {
  const { meta } = result;
  return {
    kind: 'list',
    items: [
      `**Commit:** ${commitText(result)}`,
      `**Date:** ${meta.date.slice(0, 16).replace('T', ' ')} UTC`,
      `**Command:** \`${meta.command ?? 'npm run bench'}\``,
    ],
  };
}

/** The runtimes and groups a run has rows for, in report order. */
export function summaryAxes(result: BenchResult) {
  const runtimes = RUNTIMES.filter((rt) => result.rows.some((r) => r.runtime === rt));
  const groups = SCENARIO_GROUPS.filter((g) => result.rows.some((r) => g.scenarios.includes(r.scenario)));
  return { runtimes, groups };
}

function summaryTable(result: BenchResult, over: 'hono' | 'raw', metric: Metric): Block {
  const { runtimes, groups } = summaryAxes(result);
  const rows: Cell[][] = runtimes.map((rt) => [
    RUNTIME_LABEL[rt] ?? rt,
    ...groups.map((g) => spreadCell(groupSpread(result.rows, rt, g.scenarios, metric, over))),
  ]);
  return {
    kind: 'table',
    table: { columns: [{ label: 'Runtime' }, ...groups.map((g) => ({ label: g.label, align: 'right' as const }))], rows },
  };
}

function summaryChart(result: BenchResult, over: 'hono' | 'raw'): string {
  const { runtimes, groups } = summaryAxes(result);
  const peer = over === 'hono' ? 'Hono' : 'the bare runtime (raw)';
  return barChart({
    title: `Rove's req/s over ${peer}, per scenario group`,
    subtitle: `higher is better · above 1.00× Rove serves more · geometric mean over the group's scenarios, median of ${result.config.rounds} round(s)`,
    groups: groups.map((g) => g.label),
    series: runtimes.map((rt) => ({ name: RUNTIME_LABEL[rt] ?? rt, color: RUNTIME_COLORS[rt] ?? '#999' })),
    values: groups.map((g) => runtimes.map((rt) => groupSpread(result.rows, rt, g.scenarios, 'rps', over)?.median ?? null)),
    unit: `× (Rove ÷ ${over === 'hono' ? 'Hono' : 'raw'})`,
    reference: { value: 1, label: '1.00× (same req/s)' },
    width: 1100,
    height: 380,
  });
}

export function summaryBlocks(result: BenchResult, chartDir: string): { blocks: Block[]; charts: Chart[] } {
  const { config } = result;
  const { groups } = summaryAxes(result);
  const has = (f: string) => result.rows.some((r) => r.framework === f);
  if (!has('rove') || !(has('hono') || has('raw'))) return { blocks: [], charts: [] };
  const blocks: Block[] = [
    { kind: 'h', level: 2, text: 'Summary', id: 'summary' },
    {
      kind: 'p',
      text: `Rove's requests per second divided by the peer's, on the same runtime, for the same routes: above 1.00× Rove serves more. Each cell is the geometric mean over the group's scenarios; ${config.rounds > 1 ? `the median of ${config.rounds} rounds, with the lowest and highest round in brackets (round i of each framework ran back to back, so each round gives one ratio)` : 'one round, so small gaps may be noise'}. Green: Rove ahead in every round; red: behind in every round; yellow: the rounds disagree. ${DASH}: no peer row (Hono and raw have no worker pool; raw has no session or CSRF layer). CPU per request, latency and every scenario are in the [detail](#detail).`,
    },
  ];
  const charts: Chart[] = [];
  for (const over of ['hono', 'raw'] as const) {
    if (!has(over)) continue;
    const label = over === 'hono' ? 'Rove / Hono' : 'Rove / raw (the bare runtime, no framework)';
    blocks.push({ kind: 'h', level: 3, text: `${label}, req/s`, id: `summary-${over}` }, summaryTable(result, over, 'rps'));
  }
  const measured = new Set(result.rows.map((r) => r.scenario));
  blocks.push({
    kind: 'list',
    items: groups.map(
      (g) =>
        `**${g.label}**: ${g.scenarios
          .filter((s) => measured.has(s))
          .map((s) => `\`${s}\``)
          .join(', ')}.`,
    ),
  });
  for (const over of ['hono', 'raw'] as const) {
    if (!has(over)) continue;
    const file = `summary-${over}.svg`;
    charts.push({ file, svg: summaryChart(result, over) });
    blocks.push({ kind: 'chart', file: `${chartDir}/${file}`, alt: `Rove's req/s over ${over === 'hono' ? 'Hono' : 'raw'} per scenario group and runtime` });
  }
  return { blocks, charts };
}
