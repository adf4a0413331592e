// autocannon, driven from code. One instance at a time; stoppable on Ctrl-C.
// @ts-expect-error -- autocannon ships no types; the fields used are listed below.
import autocannon from 'autocannon';
import type { RequestSpec } from './scenarios.ts';

export interface LoadResult {
  rpsAvg: number;
  rpsP50: number;
  latency: { avg: number; p50: number; p97_5: number; p99: number; max: number };
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Answers with a 3xx status (a 304 scenario expects them). */
  status3xx: number;
  durationS: number;
}

export interface LoadOptions {
  port: number;
  request: RequestSpec;
  connections: number;
  pipelining: number;
  durationS: number;
  onTick?: (elapsedS: number) => void;
}

interface AutocannonResult {
  requests: { average: number; p50: number; total: number };
  latency: { average: number; p50: number; p97_5: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '3xx': number;
  duration: number;
}

let current: { stop(): void } | null = null;

export function stopLoad(): void {
  current?.stop();
}

export function runLoad(o: LoadOptions): Promise<LoadResult> {
  return new Promise((ok, fail) => {
    const started = Date.now();
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${o.port}${o.request.path}`,
        method: o.request.method,
        headers: o.request.headers ?? {},
        body: o.request.body,
        connections: o.connections,
        pipelining: o.pipelining,
        duration: o.durationS,
        timeout: 10,
      },
      (err: Error | null, r: AutocannonResult) => {
        clearInterval(ticker);
        current = null;
        if (err) return fail(err);
        ok({
          rpsAvg: r.requests.average,
          rpsP50: r.requests.p50,
          latency: { avg: r.latency.average, p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99, max: r.latency.max },
          requests: r.requests.total,
          errors: r.errors,
          timeouts: r.timeouts,
          non2xx: r.non2xx,
          status3xx: r['3xx'] ?? 0,
          durationS: r.duration,
        });
      },
    );
    current = instance;
    const ticker = setInterval(() => o.onTick?.((Date.now() - started) / 1000), 250);
  });
}
