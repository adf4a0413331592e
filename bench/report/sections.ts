// Report sections: how the run was pinned, the listener cost measured inside one
// process, and the worker pool's benefit as the p99 of /test under saturation.
import { RUNTIMES } from '../lib/config.ts';
import { listenerRatios } from '../lib/listener-cost.ts';
import { pinningText } from '../lib/pin.ts';
import { type BenchResult, findRow, median, type Row } from '../lib/result.ts';
import { type Spread, spreadOf, spreadText } from '../lib/spread.ts';
import type { Block, Cell } from './blocks.ts';
import { DASH, fixed, int } from './format.ts';

const finite = (v: number | null | undefined): v is number => v != null && Number.isFinite(v);

function spreadCell(s: Spread | null): Cell {
  return s === null ? DASH : spreadText(s);
}

/** Lines for "The run": pinning and fresh processes (rows with their own load have the detail's Load column). */
export function methodLines(result: BenchResult): string[] {
  const out: string[] = [];
  if (result.meta.pinning !== undefined) out.push(`Pinning: ${pinningText(result.meta.pinning)}.`);
  if (result.config.fresh)
    out.push('Fresh processes: every measurement after the first of each server ran in a newly started one, after its own warm-up (`--fresh`).');
  return out;
}

/** The cost of one empty listener, from the alternating rounds in one process. */
export function listenerBlocks(result: BenchResult): Block[] {
  const rows = result.rows.filter((r) => r.scenario === 'listener' && r.listenerOff);
  if (rows.length === 0) return [];
  const title = 'The cost of one empty listener';
  const table: Cell[][] = [];
  for (const rt of RUNTIMES)
    for (const r of rows.filter((x) => x.runtime === rt)) {
      const off = r.listenerOff!;
      table.push([
        rt,
        r.framework,
        int(off.rps),
        int(r.rps.avg),
        spreadCell(spreadOf(listenerRatios(r, 'rps'))),
        fixed(off.cpuUsPerReq, 1),
        fixed(r.cpuUsPerReq, 1),
        spreadCell(spreadOf(listenerRatios(r, 'cpu'))),
        r.ok ? 'ok' : { text: 'errors under load', tone: 'bad' },
      ]);
    }
  return [
    { kind: 'h', level: 2, text: title, id: 'the-cost-of-one-empty-listener' },
    {
      kind: 'p',
      text: `\`GET /test\` in one server process whose empty listener (\`app.on(() => {})\`) the runner switches off and on between rounds, alternating which state goes first (${result.config.rounds} round(s) of each): two processes of the same app can land at different speeds, one process cannot. The ratios are taken per round; median, with the lowest and highest round in brackets. Higher is better: req/s with ÷ without, CPU per request without ÷ with.`,
    },
    {
      kind: 'table',
      table: {
        columns: [
          { label: 'Runtime' },
          { label: 'Framework' },
          { label: 'req/s off', align: 'right' },
          { label: 'req/s on', align: 'right' },
          { label: 'on/off', align: 'right' },
          { label: 'CPU µs/req off', align: 'right' },
          { label: 'CPU µs/req on', align: 'right' },
          { label: 'off/on', align: 'right' },
          { label: 'Result' },
        ],
        rows: table,
      },
    },
  ];
}

function p99Spread(r: Row | undefined): Spread | null {
  if (!r || r.rps.avg === null) return null;
  return spreadOf((r.roundsP99 ?? [r.latencyMs.p99]).filter(finite));
}

/** "439 ms (338–542)": milliseconds with the spread of the rounds. */
function msSpread(s: Spread | null): string {
  if (s === null) return DASH;
  // autocannon reports whole milliseconds: 0 means under one.
  const r = (v: number) => (v < 1 ? '<1' : Math.round(v).toLocaleString('en-US'));
  return s.n > 1 ? `${r(s.median)} ms (${r(s.min)}–${r(s.max)})` : `${r(s.median)} ms`;
}

/** The worker pool's benefit: p99 of /test while the CPU loop runs on the request thread, against in the pool. */
export function poolBlocks(result: BenchResult): Block[] {
  const runtimes = RUNTIMES.filter((rt) => result.rows.some((r) => r.runtime === rt && r.scenario.startsWith('pool-p99-')));
  if (runtimes.length === 0) return [];
  const title = 'The worker pool as users feel it';
  const table: Cell[][] = runtimes.map((rt) => {
    const cpu = findRow(result.rows, rt, 'rove', 'pool-p99-cpu');
    const worker = findRow(result.rows, rt, 'rove', 'pool-p99-worker');
    const a = p99Spread(cpu);
    const b = p99Spread(worker);
    // Per round: p99 with the loop on the request thread ÷ with it in the pool (higher: the pool helps more).
    // A p99 under autocannon's 1 ms resolution counts as 1 ms: the ratio is then a lower bound (≥).
    const ratios: number[] = [];
    let atLeast = false;
    const ra = cpu?.roundsP99 ?? [cpu?.latencyMs.p99 ?? null];
    const rb = worker?.roundsP99 ?? [worker?.latencyMs.p99 ?? null];
    for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
      const x = ra[i];
      const y = rb[i];
      if (!finite(x) || !finite(y)) continue;
      if (y < 1) atLeast = true;
      ratios.push(x / Math.max(1, y));
    }
    const ratioSpread = spreadOf(ratios);
    const ratioText = ratioSpread === null ? DASH : `${atLeast ? '≥ ' : ''}${spreadText(ratioSpread)}`;
    const sat = (r: Row | undefined) => {
      const vs = (r?.roundsSaturationRps ?? [r?.saturation?.rps ?? null]).filter(finite);
      return vs.length ? int(median(vs)) : DASH;
    };
    const ok = [cpu, worker].every((r) => !r || r.ok);
    return [rt, msSpread(a), msSpread(b), ratioText, sat(cpu), sat(worker), ok ? 'ok' : { text: 'errors under load', tone: 'bad' }];
  });
  const sat = result.rows.find((r) => r.saturation)?.saturation;
  return [
    { kind: 'h', level: 2, text: title, id: 'the-worker-pool-as-users-feel-it' },
    {
      kind: 'p',
      text: `The pool exists so that CPU-heavy work does not hold up everyone else. Here ${sat ? `${sat.connections} unpipelined connections` : 'a saturating load'} keep a 50,000-step loop busy, on the request thread (\`GET /test-cpu\`) or in the worker pool (\`GET /test-worker\`), while 10 other connections measure the latency of the light \`GET /test\` in the same Rove process (app started with the pool). The headline is the p99 of \`/test\`: with the loop on the request thread, \`/test\` waits behind it; with the loop in the pool it should not. Median of the rounds, lowest and highest in brackets; the last ratio is p99 on the request thread ÷ p99 with the pool (higher: the pool keeps \`/test\` faster). The req/s of \`/test-worker\` against \`/test-cpu\` stays in the scenario tables as a row: on two cores shared with the load generator it cannot exceed about 1, so it measures the machine rather than the pool. Where the runtime gives no threads (workerd, and \`deno serve\` as Deno Deploy runs it), the pool runs tasks inline, so both columns measure the request thread there.`,
    },
    {
      kind: 'table',
      table: {
        columns: [
          { label: 'Runtime' },
          { label: '/test p99, /test-cpu saturated', align: 'right' },
          { label: '/test p99, /test-worker saturated', align: 'right' },
          { label: 'cpu ÷ worker', align: 'right' },
          { label: '/test-cpu req/s', align: 'right' },
          { label: '/test-worker req/s', align: 'right' },
          { label: 'Result' },
        ],
        rows: table,
      },
    },
  ];
}
