// What tracing costs: the bench app's /test and /chain, on Node, Deno and Bun, with Rove and with
// Hono, each untraced and traced (bench/tracing/: the same SDK for both, spans dropped at export;
// Rove also with the API alone, no SDK),
// round by round, each target in its own server, in an order that turns each round.
import { type Child, freePort, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { runLoad } from './load.ts';
import { checkResponse, scenarioById } from './scenarios.ts';

export type TracingRuntime = 'node' | 'deno' | 'bun';
export type TracingFramework = 'rove' | 'hono';
export const TRACING_SCENARIOS = ['test', 'chain'] as const;
export type TracingScenario = (typeof TRACING_SCENARIOS)[number];

/** off: untraced; sdk: traced under the SDK; api: traced with only @opentelemetry/api (no SDK, Rove only). */
export type TracingMode = 'off' | 'sdk' | 'api';

export interface TracingRow {
  runtime: TracingRuntime;
  framework: TracingFramework;
  scenario: TracingScenario;
  tracing: TracingMode;
  /** Requests per second, per round. */
  rps: (number | null)[];
  error?: string;
}

export interface TracingResult {
  connections: number;
  pipelining: number;
  durationS: number;
  warmupS: number;
  rows: TracingRow[];
}

export interface TracingOptions {
  runtimes: TracingRuntime[];
  rounds: number;
  connections: number;
  pipelining: number;
  durationS: number;
  warmupS: number;
  log?: (line: string) => void;
}

interface Target {
  framework: TracingFramework;
  tracing: TracingMode;
}

const TARGETS: Target[] = [
  { framework: 'rove', tracing: 'off' },
  { framework: 'rove', tracing: 'api' },
  { framework: 'rove', tracing: 'sdk' },
  { framework: 'hono', tracing: 'off' },
  { framework: 'hono', tracing: 'sdk' },
];

const LABELS: Record<TracingMode, string> = { off: '', sdk: ' traced', api: ' traced, no SDK' };
const label = (t: Target) => `${t.framework}${LABELS[t.tracing]}`;

function command(runtime: TracingRuntime, framework: TracingFramework): { bin: string; args: string[] } {
  const entry = `bench/tracing/${framework}.ts`;
  if (runtime === 'node') return { bin: resolveBin('node'), args: ['--conditions=source', '--import', 'tsx', entry] };
  if (runtime === 'deno') return { bin: resolveBin('deno'), args: ['run', '-A', entry] };
  return { bin: resolveBin('bun'), args: [entry] };
}

async function startServer(runtime: TracingRuntime, t: Target): Promise<{ child: Child; port: number }> {
  const port = await freePort();
  const { bin, args } = command(runtime, t.framework);
  const child = startChild(bin, args, { PORT: String(port), BENCH_TRACING: t.tracing, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' });
  for (const deadline = Date.now() + 30_000; ; ) {
    if (child.exited) throw new Error(`${runtime} ${label(t)} exited before it was ready:\n${child.output()}`);
    const ready = await fetch(`http://127.0.0.1:${port}/test`).then(
      (r) => r.arrayBuffer().then(() => r.ok),
      () => false,
    );
    if (ready) return { child, port };
    if (Date.now() > deadline) throw new Error(`${runtime} ${label(t)} not ready in 30 s:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The scenario's answer is right, and a traced server's SDK exports spans for it. */
async function check(port: number, scenario: TracingScenario, tracing: TracingMode): Promise<void> {
  const { request, expect } = scenarioById(scenario).checks[0]!;
  const res = await fetch(`http://127.0.0.1:${port}${request.path}`, { method: request.method, headers: request.headers });
  const wrong = checkResponse(expect, { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() });
  if (wrong) throw new Error(`${scenario}: ${wrong}`);
  if (tracing !== 'sdk') return;
  // The batch processor exports a lone span after its 5 s delay: wait well past it.
  for (const deadline = Date.now() + 20_000; ; ) {
    const { exported } = (await (await fetch(`http://127.0.0.1:${port}/__spans`)).json()) as { exported: number };
    if (exported > 0) return;
    if (Date.now() > deadline) throw new Error('traced, but the SDK exported no span');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Measure every runtime: per round, each target in a fresh server, both scenarios. */
export async function measureTracing(o: TracingOptions): Promise<TracingResult> {
  const rows: TracingRow[] = [];
  const rowOf = (runtime: TracingRuntime, t: Target, scenario: TracingScenario): TracingRow => {
    let row = rows.find((r) => r.runtime === runtime && r.framework === t.framework && r.tracing === t.tracing && r.scenario === scenario);
    if (!row) {
      row = { runtime, framework: t.framework, scenario, tracing: t.tracing, rps: [] };
      rows.push(row);
    }
    return row;
  };
  for (const runtime of o.runtimes) {
    for (let round = 0; round < o.rounds; round++) {
      // Each round starts from another target, so no target always runs first or last.
      const order = TARGETS.map((_, i) => TARGETS[(i + round) % TARGETS.length]!);
      for (const t of order) {
        let server: { child: Child; port: number } | undefined;
        try {
          server = await startServer(runtime, t);
          for (const scenario of TRACING_SCENARIOS) {
            const row = rowOf(runtime, t, scenario);
            try {
              await check(server.port, scenario, t.tracing);
              const request = scenarioById(scenario).request;
              const load = { port: server.port, request, connections: o.connections, pipelining: o.pipelining };
              if (o.warmupS > 0) await runLoad({ ...load, durationS: o.warmupS });
              const result = await runLoad({ ...load, durationS: o.durationS });
              const bad = result.errors + result.timeouts + result.non2xx;
              if (bad > 0) throw new Error(`${bad} failed requests of ${result.requests}`);
              row.rps[round] = result.rpsAvg;
              o.log?.(`${runtime} ${scenario} ${label(t)} round ${round + 1}: ${Math.round(result.rpsAvg)} req/s`);
            } catch (error) {
              row.rps[round] = null;
              row.error = (error as Error).message;
              o.log?.(`${runtime} ${scenario} ${label(t)} round ${round + 1}: failed: ${row.error}`);
            }
          }
        } catch (error) {
          for (const scenario of TRACING_SCENARIOS) {
            const row = rowOf(runtime, t, scenario);
            row.rps[round] = null;
            row.error = (error as Error).message;
          }
          o.log?.(`${runtime} ${label(t)} round ${round + 1}: failed: ${(error as Error).message}`);
        } finally {
          if (server) await stopChild(server.child);
        }
      }
    }
  }
  return { connections: o.connections, pipelining: o.pipelining, durationS: o.durationS, warmupS: o.warmupS, rows };
}

/** `into`'s rows, with those of `fresh` in place of the same runtimes. */
export function mergeTracing(into: TracingResult | undefined, fresh: TracingResult): TracingResult {
  const runtimes = new Set(fresh.rows.map((r) => r.runtime));
  const order = ['node', 'deno', 'bun'];
  const rows = [...(into?.rows ?? []).filter((r) => !runtimes.has(r.runtime)), ...fresh.rows];
  rows.sort((a, b) => order.indexOf(a.runtime) - order.indexOf(b.runtime));
  return { ...fresh, rows };
}

/** Per round where both ran, `f(traced, untraced)` req/s for one framework and scenario. */
function perRound(
  rows: readonly TracingRow[],
  runtime: string,
  scenario: string,
  framework: TracingFramework,
  mode: TracingMode,
  f: (on: number, off: number) => number,
): number[] {
  const row = (tracing: TracingMode) =>
    rows.find((r) => r.runtime === runtime && r.scenario === scenario && r.framework === framework && r.tracing === tracing);
  const on = row(mode);
  const off = row('off');
  if (!on || !off) return [];
  const out: number[] = [];
  on.rps.forEach((v, i) => {
    const base = off.rps[i];
    if (v != null && v > 0 && base != null && base > 0) out.push(f(v, base));
  });
  return out;
}

/** Per round, traced (`mode`) over untraced req/s for one framework: what tracing keeps of the throughput. */
export function keptRatios(rows: readonly TracingRow[], runtime: string, scenario: string, framework: TracingFramework, mode: TracingMode = 'sdk'): number[] {
  return perRound(rows, runtime, scenario, framework, mode, (on, off) => on / off);
}

/**
 * Per round, what tracing (`mode`) added to each request, in µs: 10⁶/traced − 10⁶/untraced req/s.
 * The fair comparison across frameworks: a faster framework loses a larger share to the same cost.
 */
export function addedMicros(rows: readonly TracingRow[], runtime: string, scenario: string, framework: TracingFramework, mode: TracingMode = 'sdk'): number[] {
  return perRound(rows, runtime, scenario, framework, mode, (on, off) => 1e6 / on - 1e6 / off);
}
