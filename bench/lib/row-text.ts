// The run's progress output: elapsed and left as a clock, and one log line per finished row.
import type { Row } from './result.ts';

/** Seconds as m:ss or h:mm:ss, for the progress line. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** One finished row as the run's log line. */
export function describeRow(r: Row): string {
  const head = `  ${r.runtime.padEnd(11)} ${r.framework.padEnd(4)} ${r.scenario.padEnd(19)}`;
  if (r.rps.avg === null) return `${head} FAILED  ${r.error}`;
  const rps = Math.round(r.rps.avg).toLocaleString('en-US').padStart(9);
  const p99 = `p99 ${r.latencyMs.p99} ms`.padEnd(12);
  const cpu = `cpu ${r.cpuUsPerReq ?? '?'} µs/req`.padEnd(18);
  const bg = r.backgroundCpuPct == null ? '' : `  others ${r.backgroundCpuPct}%`;
  return `${head} ${rps} req/s  ${p99} ${cpu} rss ${String(r.rssPeakMB ?? '?').padEnd(5)} MB${bg}${r.ok ? '' : `  FAILED  ${r.error}`}`;
}
