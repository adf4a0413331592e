// The worker pool's benefit as users feel it: the p99 latency of a
// light GET /test while another load saturates a CPU-heavy route. With the
// loop on the request thread (/test-cpu), /test waits behind it; with the loop
// in the pool (/test-worker), the request thread stays free and /test stays
// fast. On two cores shared with the load generator the req/s of
// /test-worker over /test-cpu cannot exceed about 1; this is the headline.
import { type LoadResult, runLoad } from './load.ts';
import type { RequestSpec } from './scenarios.ts';

/** The light probe: a few unpipelined users, so its own queueing stays small. */
export const PROBE = { connections: 10, pipelining: 1 } as const;
/** Saturating users; unpipelined, as Bun closes a pipelined connection while a response is pending. */
export const SATURATE_PIPELINING = 1;
/** Seconds of saturation before the probe starts, in rounds without a warm-up. */
const RAMP_S = 1;

export interface Saturation {
  path: string;
  connections: number;
  pipelining: number;
  rps: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

export interface PoolRound {
  /** The probe's figures (GET /test). */
  probe: LoadResult;
  saturation: Saturation;
}

export interface PoolRoundOptions {
  port: number;
  probe: RequestSpec;
  saturate: RequestSpec;
  connections: number;
  durationS: number;
  warmupS: number;
  onTick?: (what: string, elapsedS: number) => void;
}

/** Saturates `saturate`, then measures `probe` for durationS while the saturation goes on. */
export async function poolRound(o: PoolRoundOptions): Promise<PoolRound> {
  const lead = Math.max(RAMP_S, o.warmupS);
  const saturation = runLoad({
    port: o.port,
    request: o.saturate,
    connections: o.connections,
    pipelining: SATURATE_PIPELINING,
    // Outlasts the probe by a little, so the probe's last requests still meet the saturation.
    durationS: lead + o.durationS + 0.5,
    onTick: (e) => (e < lead ? o.onTick?.('saturating', e) : undefined),
  });
  await new Promise((ok) => setTimeout(ok, lead * 1000));
  const probe = await runLoad({
    port: o.port,
    request: o.probe,
    connections: PROBE.connections,
    pipelining: PROBE.pipelining,
    durationS: o.durationS,
    onTick: (e) => o.onTick?.('measure', e),
  });
  const sat = await saturation;
  return {
    probe,
    saturation: {
      path: o.saturate.path,
      connections: o.connections,
      pipelining: SATURATE_PIPELINING,
      rps: sat.rpsAvg,
      requests: sat.requests,
      errors: sat.errors,
      timeouts: sat.timeouts,
      non2xx: sat.non2xx,
    },
  };
}
