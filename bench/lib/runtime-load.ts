// Load settings a runtime sustains, where they differ from the profile's.
//
// workerd under pipelining 10 starves some connections: in 13 s runs of the
// bare worker at -c 100 -p 10 (a per-connection probe, 2026-11-23), one run in
// four left 61 of 100 connections unanswered for over 10 s while the others
// were served, then closed the served ones; the other runs had per-connection
// gaps of 2–3 s. autocannon times a request out after 10 s, so a 4 s run can
// never fail this way, and a 10 s run fails whenever the stall comes: that is
// why 4 s rows passed and 10 s rows failed, raw included. Without pipelining
// the same load is served evenly (longest gap on any connection about 0.4 s).
// So workerd runs unpipelined: the same 100 connections, one request in flight each.
import type { Config, RuntimeId } from './config.ts';
import { knownLimit } from './known-limits.ts';

export interface RuntimeLoad {
  connections: number;
  pipelining: number;
  /** Why this runtime runs with other settings than the profile's. */
  reason?: string;
}

const WORKERD_REASON =
  'workerd starves some pipelined connections for over 10 s (autocannon’s timeout) under -p 10, raw included; unpipelined it serves every connection evenly';

const BUN_REASON =
  'Bun 1.4 closes a pipelined connection while a response ahead of it waits on I/O (oven-sh/bun#38128), raw included; unpipelined these routes serve normally';

/** Why a scenario with its own pipelining (the database scenarios) runs with it. */
export const SCENARIO_PIPELINING_REASON = 'the database scenarios run unpipelined, as TechEmpower runs them';

/** A few words for a row's `load.reason`, for the report's Load column (older runs: "own load"). */
export function loadReasonLabel(reason: string | undefined): string {
  if (reason === SCENARIO_PIPELINING_REASON) return 'database';
  if (reason === WORKERD_REASON) return 'workerd';
  if (reason === BUN_REASON) return 'Bun bug';
  return 'own load';
}

/** The connections and pipelining a runtime is measured with under this config, for this scenario. */
export function loadFor(
  runtime: RuntimeId,
  c: Pick<Config, 'connections' | 'pipelining'> & { runtimeLoad?: 'profile' | 'sustained' },
  scenario = '',
): RuntimeLoad {
  if (c.pipelining > 1 && c.runtimeLoad !== 'profile') {
    if (runtime === 'workerd') return { connections: c.connections, pipelining: 1, reason: WORKERD_REASON };
    // Only the scenarios where the bug shows (file reads, Web Crypto): the rest keep the profile's load.
    if (runtime === 'bun' && knownLimit('bun', scenario, c.pipelining)) return { connections: c.connections, pipelining: 1, reason: BUN_REASON };
  }
  return { connections: c.connections, pipelining: c.pipelining };
}
