// Prints overhead tables from a bench run's JSON:
// rove/raw CPU per request and Rove/Hono req/s per runtime and scenario, as the
// median of the per-round ratios with the lowest and highest round.
//
//   node --import tsx bench/overhead-table.ts tmp/run.json
import { readFileSync } from 'node:fs';
import type { FrameworkId } from './lib/config.ts';
import type { Metric, Row } from './lib/result.ts';
import { roundRatios, spreadOf, spreadText, targetOf, verdict } from './lib/spread.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: bench/overhead-table.ts RUN.json');
const run = JSON.parse(readFileSync(file, 'utf8')) as { rows: Row[] };
const runtimes = [...new Set(run.rows.map((r) => r.runtime))];
const scenarios = [...new Set(run.rows.map((r) => r.scenario))];

function cell(runtime: string, scenario: string, metric: Metric, over: FrameworkId): string {
  const s = spreadOf(roundRatios(run.rows, runtime, scenario, metric, over));
  if (s === null) return '–';
  const target = targetOf(runtime, scenario, metric, over);
  const v = target === null ? 'met' : verdict(s, target);
  const text = spreadText(s);
  return v === 'missed' ? `**${text}**` : v === 'not established' ? `${text} not established` : text;
}

for (const [title, metric, over] of [
  ['CPU per request, rove/raw (raw µs ÷ Rove µs; target ≥ 0.90, 0.95 for workerd `test`)', 'cpu', 'raw'],
  ['req/s, Rove/Hono (target ≥ 1.00)', 'rps', 'hono'],
] as const) {
  console.log(`### ${title}\n`);
  console.log(`| Scenario | ${runtimes.join(' | ')} |`);
  console.log(`| --- |${runtimes.map(() => ' ---: |').join('')}`);
  for (const s of scenarios) console.log(`| \`${s}\` | ${runtimes.map((rt) => cell(rt, s, metric, over)).join(' | ')} |`);
  console.log('');
}

// The CPU per request behind the ratios: the median over rounds of each row.
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const us = (rt: string, fw: string, s: string) => {
  const r = run.rows.find((x) => x.runtime === rt && x.framework === fw && x.scenario === s);
  const v = (r?.roundsCpuUsPerReq ?? [r?.cpuUsPerReq]).filter((x): x is number => typeof x === 'number');
  return v.length ? med(v)!.toFixed(1) : '–';
};
console.log('### CPU µs per request (median of rounds): Rove / raw / Hono\n');
console.log(`| Scenario | ${runtimes.join(' | ')} |`);
console.log(`| --- |${runtimes.map(() => ' ---: |').join('')}`);
for (const s of scenarios)
  console.log(`| \`${s}\` | ${runtimes.map((rt) => `${us(rt, 'rove', s)} / ${us(rt, 'raw', s)} / ${us(rt, 'hono', s)}`).join(' | ')} |`);
