// A run of every scenario on every runtime with Rove, Hono and raw, 3 rounds, cold starts and
// bundle sizes, with deterministic figures in the ranges a real run gives: the widest report.

import type { ColdStartEntry } from '../../bench/lib/cold-start-result.ts';
import { type FrameworkId, RUNTIMES } from '../../bench/lib/config.ts';
import { type BenchResult, emptyRow, type Row } from '../../bench/lib/result.ts';
import { loadFor, SCENARIO_PIPELINING_REASON } from '../../bench/lib/runtime-load.ts';
import { SCENARIOS } from '../../bench/lib/scenarios.ts';

const FRAMEWORKS: FrameworkId[] = ['rove', 'hono', 'raw'];

/** Deterministic figures in the ranges a real run gives. */
export function fixture(): BenchResult {
  let seed = 7;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const rows: Row[] = [];
  for (const runtime of RUNTIMES)
    for (const s of SCENARIOS) {
      if (s.runtimes && !s.runtimes.includes(runtime)) continue;
      for (const framework of FRAMEWORKS) {
        if (!s.frameworks.includes(framework)) continue;
        const rps = 2_000 + rand() * 120_000;
        const rounds = [rps * (0.95 + rand() * 0.05), rps, rps * (1 + rand() * 0.05)];
        const cpu = 1e6 / rps;
        const load = loadFor(runtime, { connections: 100, pipelining: 10 }, s.id);
        rows.push({
          ...emptyRow(runtime, framework, s.id, null),
          ok: true,
          rps: { avg: rps, p50: rps },
          latencyMs: { avg: 8, p50: 7, p97_5: 20, p99: 25 + rand() * 900, max: 1_200 },
          requests: rps * 2,
          errors: 0,
          timeouts: 0,
          non2xx: 0,
          cpuUsPerReq: cpu,
          rssPeakMB: 70,
          coldStartMs: 120,
          roundsRps: rounds,
          roundsCpuUsPerReq: rounds.map((r) => 1e6 / r),
          roundsP99: [25, 30, 40],
          ...(s.pipelining ? { load: { connections: 100, pipelining: 1, reason: SCENARIO_PIPELINING_REASON } } : load.reason ? { load } : {}),
        });
      }
    }
  const entry = (runtime: ColdStartEntry['runtime'], app: ColdStartEntry['app'], mode: ColdStartEntry['mode']): ColdStartEntry => {
    const ms = 30 + rand() * 300;
    return {
      runtime,
      app,
      mode,
      entry: `bench/cold/${app}.ts`,
      request: 'GET /',
      bundleBytes: mode === 'bundled' ? 26_852 : null,
      bundleGzipBytes: mode === 'bundled' ? 10_502 : null,
      samples: [],
      median: { firstAnswerMs: ms, cpuMs: ms * 1.4, startupMs: runtime === 'workerd' ? 4.2 : null },
      spread: { firstAnswerMs: [ms * 0.9, ms * 1.3], cpuMs: [ms * 1.2, ms * 1.7], startupMs: runtime === 'workerd' ? [3.9, 5.1] : null },
      error: null,
    };
  };
  return {
    meta: {
      date: '2026-11-27T23:00:00.000Z',
      host: { cpus: 2, cpuModel: 'AMD EPYC', memGiB: 23, os: 'Debian GNU/Linux 12 (bookworm), Linux 6.1' },
      versions: { node: '20.20.2', deno: '2.6.0', bun: '1.4.0', workerd: '2026-11-01', rove: '0.1.0 (0123456)', hono: '4.13.19' },
      command: 'npm run bench',
      git: { commit: '0123456789abcdef0123456789abcdef01234567', dirty: false },
      pinning: { server: '0', load: '1', tool: 'taskset' },
    },
    config: { profile: 'report', connections: 100, pipelining: 10, durationS: 2, warmupS: 0.5, rounds: 3, fresh: true },
    rows,
    bundleSizes: {
      date: '2026-11-27T23:00:00.000Z',
      versions: { rove: '0.1.0 (0123456)', hono: '4.13.19', esbuild: '0.27.3' },
      command: 'esbuild ENTRY --bundle --minify (gzip level 9)',
      bundles: [
        { id: 'rove', label: 'Two-route app, Rove', entry: 'bench/size/rove.ts', bytes: 26_852, gzipBytes: 10_502, error: null },
        { id: 'hono', label: 'Two-route app, Hono', entry: 'bench/size/hono.ts', bytes: 20_245, gzipBytes: 8_456, error: null },
        { id: 'hello-worker', label: 'examples/hello worker (Rove)', entry: 'examples/hello/worker.ts', bytes: 67_564, gzipBytes: 23_812, error: null },
      ],
    },
    coldStart: {
      date: '2026-11-27T23:50:00.000Z',
      command: 'npm run bench:cold',
      starts: 10,
      entries: RUNTIMES.flatMap((rt) =>
        (['bundled', 'source'] as const).flatMap((mode) =>
          rt === 'workerd' && mode === 'source'
            ? []
            : (['two-route-rove', 'two-route-hono', 'two-route-bare', 'hello', 'notes'] as const).map((app) => entry(rt, app, mode)),
        ),
      ),
    },
  };
}
