// The tracing section of the report: what tracing costs Rove (otel(app)) and Hono (@hono/otel)
// on /test and /chain, per runtime, each measured untraced and traced in the same rounds.

import { median } from '../lib/result.ts';
import { addedMicros, keptRatios, TRACING_SCENARIOS, type TracingMode, type TracingResult, type TracingRow } from '../lib/tracing.ts';
import { type Block, type Cell, slug } from './blocks.ts';
import { DASH, rangeText, times } from './format.ts';

const spreadText = (rs: number[]): string => rangeText(rs, times);

/** Median req/s over the rounds, or the failure. */
function rps(row: TracingRow | undefined): Cell {
  if (!row) return DASH;
  const ok = row.rps.filter((v): v is number => v != null);
  if (ok.length === 0) return { text: `failed: ${row.error ?? 'no round ran'}`, tone: 'bad' };
  return Math.round(median(ok)).toLocaleString('en-US');
}

/** `median (lowest–highest)` of µs figures. */
const microsText = (xs: number[]): string => rangeText(xs, (n) => n.toFixed(1));

/** Per round, the µs tracing added to Rove's requests over those it added to Hono's: ≤ 1.00× means it cost Rove no more. */
function costRatio(u: TracingResult, runtime: string, scenario: string): Cell {
  const rove = addedMicros(u.rows, runtime, scenario, 'rove');
  const hono = addedMicros(u.rows, runtime, scenario, 'hono');
  const n = Math.min(rove.length, hono.length);
  if (n === 0) return DASH;
  const rs: number[] = [];
  for (let i = 0; i < n; i++) if (hono[i]! > 0) rs.push(rove[i]! / hono[i]!);
  if (rs.length === 0) return DASH;
  const good = median(rs) <= 1;
  return { text: spreadText(rs), tone: good ? 'good' : 'bad', strong: !good };
}

export function tracingBlocks(u: TracingResult): Block[] {
  const title = 'Tracing';
  const find = (runtime: string, scenario: string, framework: string, mode: TracingMode) =>
    u.rows.find((r) => r.runtime === runtime && r.scenario === scenario && r.framework === framework && r.tracing === mode);
  const runtimes = [...new Set(u.rows.map((r) => r.runtime))];
  const rows: Cell[][] = [];
  for (const runtime of runtimes) {
    for (const scenario of TRACING_SCENARIOS) {
      const kept = (framework: 'rove' | 'hono', mode: TracingMode = 'sdk'): Cell => {
        const rs = keptRatios(u.rows, runtime, scenario, framework, mode);
        return rs.length === 0 ? DASH : spreadText(rs);
      };
      const added = (framework: 'rove' | 'hono'): Cell => {
        const xs = addedMicros(u.rows, runtime, scenario, framework);
        return xs.length === 0 ? DASH : microsText(xs);
      };
      rows.push([
        runtime,
        `\`${scenario}\``,
        rps(find(runtime, scenario, 'rove', 'off')),
        kept('rove', 'api'),
        rps(find(runtime, scenario, 'rove', 'sdk')),
        added('rove'),
        rps(find(runtime, scenario, 'hono', 'off')),
        rps(find(runtime, scenario, 'hono', 'sdk')),
        added('hono'),
        costRatio(u, runtime, scenario),
      ]);
    }
  }
  const rounds = Math.max(0, ...u.rows.map((r) => r.rps.length));
  return [
    { kind: 'h', level: 2, text: title, id: slug(title) },
    {
      kind: 'p',
      text: `The bench app's \`/test\` and \`/chain\` (five middleware layers), untraced and traced: Rove with \`otel(app)\`, Hono with \`@hono/otel\`'s middleware, both under the same OpenTelemetry SDK (a batch span processor, the AsyncLocalStorage context manager, the W3C propagator) whose exporter drops the spans, so the figures are the cost of making them (\`bench/tracing/\`). ${u.connections} connections, pipelining ${u.pipelining}, ${u.durationS} s after ${u.warmupS} s warm-up; ${rounds} rounds, each target in a fresh server, the order turned each round. What tracing costs is the time it adds to a request: 10⁶/traced − 10⁶/untraced req/s, in µs, for each framework in each round (a share of throughput would charge the faster framework more for the same work). The last column is Rove's added µs over Hono's in the same round: at or below 1.00×, tracing cost Rove no more than it cost Hono. "Kept, no SDK" is Rove with \`otel(app)\` and only \`@opentelemetry/api\` installed, over Rove untraced: what \`otel(app)\` costs before an SDK is registered. Median (lowest–highest) over the rounds. Method: [methods.md](methods.md#tracing).`,
    },
    {
      kind: 'table',
      table: {
        columns: [
          { label: 'Runtime' },
          { label: 'Scenario' },
          { label: 'Rove req/s', align: 'right' },
          { label: 'Rove kept, no SDK', align: 'right' },
          { label: 'Rove traced', align: 'right' },
          { label: 'Rove µs added', align: 'right' },
          { label: 'Hono req/s', align: 'right' },
          { label: 'Hono traced', align: 'right' },
          { label: 'Hono µs added', align: 'right' },
          { label: 'Rove µs / Hono µs', align: 'right' },
        ],
        rows,
      },
    },
  ];
}
