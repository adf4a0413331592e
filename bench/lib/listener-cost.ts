// The cost of one empty event listener, measured inside one server process.
// Comparing two processes, one with the listener and one without,
// swung from 0.78 to 1.01 between runs: fresh processes of the same app land
// at different speeds. So the bench app's listener variant can switch its
// listener off and on (POST /__bench/listener/off|on, only in that variant),
// and the runner measures both states in every round, alternating which goes
// first. The ratio is taken per round, and its median and spread reported.
import { send } from './http.ts';
import { median, type Row } from './result.ts';

/** Switches the bench app's empty listener; returns an error message, or null. */
export async function setListener(port: number, state: 'on' | 'off'): Promise<string | null> {
  try {
    const res = await send(port, { method: 'POST', path: `/__bench/listener/${state}` });
    if (res.status !== 200 || res.body !== state) return `expected 200 "${state}", got ${res.status} ${JSON.stringify(res.body.slice(0, 80))}`;
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const finite = (v: number | null | undefined): v is number => v != null && Number.isFinite(v);
const med = (vs: (number | null)[]) => {
  const ok = vs.filter(finite);
  return ok.length ? median(ok) : null;
};

/**
 * Gathers the "off" twin of every round into the reported row: the row keeps the
 * listener-on figures of its median round, and `listenerOff` the off figures of every round.
 */
export function combineListenerRounds(row: Row, rounds: readonly Row[]): Row {
  const roundsRps = rounds.map((r) => r.listenerOff?.rps ?? null);
  const roundsCpuUsPerReq = rounds.map((r) => r.listenerOff?.cpuUsPerReq ?? null);
  const roundsP99 = rounds.map((r) => r.listenerOff?.p99 ?? null);
  return {
    ...row,
    roundsRps: rounds.map((r) => r.rps.avg ?? NaN),
    roundsCpuUsPerReq: rounds.map((r) => r.cpuUsPerReq),
    roundsP99: rounds.map((r) => r.latencyMs.p99),
    listenerOff: { rps: med(roundsRps), cpuUsPerReq: med(roundsCpuUsPerReq), p99: med(roundsP99), roundsRps, roundsCpuUsPerReq, roundsP99 },
  };
}

/** Per-round ratios on ÷ off, higher is better: req/s on/off, CPU off/on. */
export function listenerRatios(row: Row, metric: 'rps' | 'cpu'): number[] {
  const off = row.listenerOff;
  if (!off) return [];
  const on = metric === 'rps' ? (row.roundsRps ?? [row.rps.avg]) : (row.roundsCpuUsPerReq ?? [row.cpuUsPerReq]);
  const base = metric === 'rps' ? off.roundsRps : off.roundsCpuUsPerReq;
  const out: number[] = [];
  for (let i = 0; i < Math.min(on.length, base.length); i++) {
    const a = on[i];
    const b = base[i];
    if (!finite(a) || !finite(b) || a <= 0 || b <= 0) continue;
    out.push(metric === 'rps' ? a / b : b / a);
  }
  return out;
}
