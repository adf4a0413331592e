// The "Before and after" section of a run with --baseline DIR: the new Rove (`rove`) and the
// old one (`rove-baseline`, Rove's bench app started from DIR) measured in the same rounds.
import { RUNTIMES } from '../lib/config.ts';
import { type BenchResult, findRow, type Metric, ratioHasErrors } from '../lib/result.ts';
import { SCENARIOS } from '../lib/scenarios.ts';
import { baselineSpread, lowerBeyondSpread, roundRatios, type Spread, spreadOf, spreadText } from '../lib/spread.ts';
import { type Block, type Cell, slug } from './blocks.ts';
import { DASH, fixed } from './format.ts';

type Pair = readonly ['rove' | 'rove-baseline', 'rove-baseline' | 'hono' | 'raw'];

function cell(s: Spread | null, errors: boolean): Cell {
  if (s === null) return DASH;
  const text = spreadText(s) + (errors ? '†' : '');
  return { text, tone: s.min >= 1 ? 'good' : s.max < 1 ? 'bad' : 'warn' };
}

export function baselineBlocks(result: BenchResult): Block[] {
  const { rows, config, meta } = result;
  if (!rows.some((r) => r.framework === 'rove-baseline') || !rows.some((r) => r.framework === 'rove')) return [];
  const title = 'Before and after: rove against rove-baseline';
  const spread = (rt: string, s: string, metric: Metric, [of, over]: Pair) => spreadOf(roundRatios(rows, rt, s, metric, over, of));
  const errors = (rt: string, s: string, [of, over]: Pair) => ratioHasErrors(rows, rt, s, over, of);
  const cpu = (rt: string, f: string, s: string): Cell => {
    const r = findRow(rows, rt, f, s);
    return r && r.rps.avg !== null ? fixed(r.cpuUsPerReq, 1) : r ? { text: 'failed', tone: 'bad' } : DASH;
  };
  const table: Cell[][] = [];
  const flagged: string[] = [];
  for (const rt of RUNTIMES)
    for (const s of SCENARIOS) {
      if (!findRow(rows, rt, 'rove', s.id) && !findRow(rows, rt, 'rove-baseline', s.id)) continue;
      const newHono = spread(rt, s.id, 'cpu', ['rove', 'hono']);
      const oldHono = spread(rt, s.id, 'cpu', ['rove-baseline', 'hono']);
      const flag = lowerBeyondSpread(newHono, oldHono);
      if (flag) flagged.push(`${rt} \`${s.id}\``);
      table.push([
        rt,
        `\`${s.id}\``,
        cpu(rt, 'rove', s.id),
        cpu(rt, 'rove-baseline', s.id),
        cpu(rt, 'hono', s.id),
        cpu(rt, 'raw', s.id),
        cell(baselineSpread(rows, rt, s.id, 'cpu'), errors(rt, s.id, ['rove', 'rove-baseline'])),
        cell(baselineSpread(rows, rt, s.id, 'rps'), errors(rt, s.id, ['rove', 'rove-baseline'])),
        cell(newHono, errors(rt, s.id, ['rove', 'hono'])),
        cell(oldHono, errors(rt, s.id, ['rove-baseline', 'hono'])),
        cell(spread(rt, s.id, 'cpu', ['rove', 'raw']), errors(rt, s.id, ['rove', 'raw'])),
        flag ? { text: 'lower', tone: 'bad', strong: true } : '',
      ]);
    }
  const version = meta.versions['rove-baseline'];
  return [
    { kind: 'h', level: 2, text: title, id: slug(title) },
    {
      kind: 'p',
      text: `\`rove\` is this tree's bench app (rove ${meta.versions.rove ?? '?'}); \`rove-baseline\` is the same bench app started from ${config.baseline ? `\`${config.baseline}\`` : 'the --baseline tree'}${version ? ` (rove ${version})` : ''}, with the same commands, measured in the same rounds beside Hono and raw, so the ratios share the machine's noise. CPU per request: the median round's server CPU µs. Ratios, higher is better for the first named: CPU as the second's µs over the first's (rove/rove-baseline above 1.00× means the new code spends less CPU per request), req/s as the first's over the second's; each is the median of the per-round ratios${config.rounds > 1 ? ' with the lowest and highest round in brackets' : ''}. The last four ratio columns are CPU per request. † a side had errors under load. "lower": rove/hono is lower than rove-baseline/hono by more than the rounds' spread (its highest round below the other's lowest).`,
    },
    {
      kind: 'table',
      table: {
        columns: [
          { label: 'Runtime' },
          { label: 'Scenario' },
          { label: 'rove µs', align: 'right' },
          { label: 'rove-baseline µs', align: 'right' },
          { label: 'hono µs', align: 'right' },
          { label: 'raw µs', align: 'right' },
          { label: 'CPU rove/rove-baseline', align: 'right' },
          { label: 'req/s rove/rove-baseline', align: 'right' },
          { label: 'rove/hono', align: 'right' },
          { label: 'rove-baseline/hono', align: 'right' },
          { label: 'rove/raw', align: 'right' },
          { label: 'Flag' },
        ],
        rows: table,
      },
    },
    {
      kind: 'p',
      text: flagged.length
        ? `Flagged (rove/hono below rove-baseline/hono beyond the spread): ${flagged.join(', ')}.`
        : "No row has rove/hono below rove-baseline/hono by more than the rounds' spread.",
    },
  ];
}
