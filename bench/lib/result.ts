// The JSON written by --out (docs/benchmarks/results.json is one), and the maths on it.
import type { BundleSizes } from './bundle-size.ts';
import type { ColdStartResult } from './cold-start-result.ts';
import type { Config, FrameworkId, RuntimeId } from './config.ts';
import type { Pinning } from './pin.ts';
import type { Saturation } from './pool-p99.ts';
import { scenarioById } from './scenarios.ts';
import type { TracingResult } from './tracing.ts';
import type { UploadsResult } from './uploads.ts';

export interface Row {
  runtime: RuntimeId;
  framework: FrameworkId;
  scenario: string;
  ok: boolean;
  error: string | null;
  rps: { avg: number | null; p50: number | null };
  latencyMs: { avg: number | null; p50: number | null; p97_5: number | null; p99: number | null; max: number | null };
  requests: number | null;
  errors: number | null;
  timeouts: number | null;
  non2xx: number | null;
  cpuUsPerReq: number | null;
  rssPeakMB: number | null;
  coldStartMs: number | null;
  /** CPU used by other processes on the machine during the measured window, in % of one core. */
  backgroundCpuPct?: number | null;
  /** req/s of every round, when --rounds > 1 (the row shows the median round). */
  roundsRps?: number[];
  /** CPU µs per request of every round, in the same order as `roundsRps` (the same round of each framework ran back to back). */
  roundsCpuUsPerReq?: (number | null)[];
  /** Other processes' CPU during each round's measured window, in % of one core (same order). */
  roundsBackgroundCpuPct?: (number | null)[];
  /** p99 latency of every round (same order). */
  roundsP99?: (number | null)[];
  /** The load this row ran with, when its runtime does not sustain the profile's (bench/lib/runtime-load.ts). */
  load?: { connections: number; pipelining: number; reason?: string };
  /** 'pool-p99' scenarios: the saturating load beside the measured one (median round), and its req/s per round. */
  saturation?: Saturation;
  roundsSaturationRps?: (number | null)[];
  /** 'listener': the same process with the listener switched off, in rounds alternating with the row's own. */
  listenerOff?: {
    rps: number | null;
    cpuUsPerReq: number | null;
    p99: number | null;
    roundsRps: (number | null)[];
    roundsCpuUsPerReq: (number | null)[];
    roundsP99: (number | null)[];
  };
}

export interface Meta {
  date: string;
  host: { cpus: number; cpuModel: string; memGiB: number; os: string };
  versions: Record<string, string>;
  command?: string;
  /** Which cores the servers and the load generator were pinned to; null: not pinned. */
  pinning?: Pinning | null;
  /** The commit measured, and whether the working tree had changes beside it when the run began. */
  git?: { commit: string; dirty: boolean };
}

export interface BenchResult {
  meta: Meta;
  config: {
    profile: string;
    connections: number;
    pipelining: number;
    durationS: number;
    warmupS: number;
    rounds: number;
    waitQuietS?: number;
    runtimes?: string[];
    frameworks?: string[];
    scenarios?: string[];
    /** Server processes of the rove targets (--processes), when more than 1. */
    processes?: number;
    /** Each measurement after a target's first ran in newly started server processes (--fresh). */
    fresh?: boolean;
    /** PostgreSQL pool size per server process (--db-pool), when DB scenarios ran. */
    dbPool?: number;
    runtimeLoad?: 'sustained' | 'profile';
    /** --baseline: the tree whose Rove bench app ran as rove-baseline (meta.versions['rove-baseline'] has its commit). */
    baseline?: string;
  };
  rows: Row[];
  /** Bundle sizes of the two-route app with Rove and with Hono, and of examples/hello's worker (npm run bench:size). */
  bundleSizes?: BundleSizes;
  /** Cold starts per runtime × app × mode (npm run bench:cold, and the last step of npm run bench). */
  coldStart?: ColdStartResult;
  /** One large upload streamed to disk by Rove and by Hono, per runtime (npm run bench:uploads). */
  uploads?: UploadsResult;
  /** What tracing costs Rove and Hono on /test and /chain, per runtime (npm run bench:tracing). */
  tracing?: TracingResult;
}

export function configForJson(c: Config): BenchResult['config'] {
  return {
    profile: c.profile,
    connections: c.connections,
    pipelining: c.pipelining,
    durationS: c.durationS,
    warmupS: c.warmupS,
    rounds: c.rounds,
    waitQuietS: c.waitQuietS,
    runtimes: c.runtimes,
    frameworks: c.frameworks,
    scenarios: c.scenarios,
    ...(c.processes > 1 ? { processes: c.processes } : {}),
    ...(c.fresh ? { fresh: true } : {}),
    ...(c.scenarios.some((id) => scenarioById(id).variant === 'db') ? { dbPool: c.dbPool } : {}),
    runtimeLoad: c.runtimeLoad,
    ...(c.baseline !== undefined ? { baseline: c.baseline } : {}),
  };
}

export function emptyRow(runtime: RuntimeId, framework: FrameworkId, scenario: string, error: string | null): Row {
  return {
    runtime,
    framework,
    scenario,
    ok: false,
    error,
    rps: { avg: null, p50: null },
    latencyMs: { avg: null, p50: null, p97_5: null, p99: null, max: null },
    requests: null,
    errors: null,
    timeouts: null,
    non2xx: null,
    cpuUsPerReq: null,
    rssPeakMB: null,
    coldStartMs: null,
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Index of the median element by key (the lower middle for even counts), to report one consistent round. */
export function medianIndex<T>(items: readonly T[], key: (t: T) => number): number {
  const order = items.map((t, i) => [key(t), i] as const).sort((a, b) => a[0] - b[0]);
  return order[(order.length - 1) >> 1]![1];
}

/** a / b, or null when either side is missing, failed or zero. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null || b == null || !Number.isFinite(a) || !Number.isFinite(b) || b <= 0 || a < 0) return null;
  return a / b;
}

export function findRow(rows: readonly Row[], runtime: string, framework: string, scenario: string): Row | undefined {
  return rows.find((r) => r.runtime === runtime && r.framework === framework && r.scenario === scenario);
}

export type Metric = 'rps' | 'cpu';

function metricOf(row: Row | undefined, metric: Metric): number | null {
  if (!row || row.rps.avg === null) return null;
  return metric === 'rps' ? row.rps.avg : row.cpuUsPerReq;
}

/**
 * rove/raw or rove/hono for one runtime and scenario, from rows that were
 * measured: a row that failed its check or did not start has no figures.
 * Rows with errors under load still count (see `ratioHasErrors`).
 */
export function frameworkRatio(
  rows: readonly Row[],
  runtime: string,
  scenario: string,
  metric: Metric,
  over: FrameworkId,
  of: FrameworkId = 'rove',
): number | null {
  return ratio(metricOf(findRow(rows, runtime, of, scenario), metric), metricOf(findRow(rows, runtime, over, scenario), metric));
}

/** Whether either side of a ratio had errors, timeouts or non-2xx responses under load. */
export function ratioHasErrors(rows: readonly Row[], runtime: string, scenario: string, over: FrameworkId, of: FrameworkId = 'rove'): boolean {
  return [findRow(rows, runtime, of, scenario), findRow(rows, runtime, over, scenario)].some((r) => r !== undefined && !r.ok);
}

/** Performance targets from the issue: rove ≥ 0.95× raw (deno, bun) / 0.90× (node) on /test, ≥ 1.0× hono everywhere. */
export function targetFor(runtime: string, scenario: string, over: FrameworkId): number | null {
  if (over === 'hono') return 1.0;
  if (scenario !== 'test') return null;
  if (runtime === 'node') return 0.9;
  if (runtime === 'deno' || runtime === 'bun') return 0.95;
  return null;
}
