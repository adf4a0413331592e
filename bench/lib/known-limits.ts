// Failures under load that come from a runtime, not from the framework under
// test: the report names them next to the failed row, with what shows it.

export interface KnownLimit {
  runtime: string;
  /** Scenarios it applies to; every scenario when absent. */
  scenarios?: readonly string[];
  /** Only under pipelining (autocannon -p > 1). */
  pipelined?: boolean;
  note: string;
}

export const KNOWN_LIMITS: readonly KnownLimit[] = [
  {
    runtime: 'bun',
    scenarios: ['test-worker'],
    pipelined: true,
    note: 'Bun 1.4 closes a connection, unanswered, when a pipelined request arrives while the response ahead of it is still pending (here: waiting for a worker thread); oven-sh/bun#38128 is the open fix. Without pipelining the route serves.',
  },
  {
    runtime: 'bun',
    scenarios: ['static', 'static-304', 'session-read', 'csrf-post', 'session-read-redis'],
    pipelined: true,
    note: 'the same Bun 1.4 pipelining bug (oven-sh/bun#38128) for responses that wait on I/O: a file read, Web Crypto for the session and CSRF token, or a Redis reply; Rove, Hono and the bare server alike. With --pipelining 1 these routes serve normally.',
  },
  {
    runtime: 'workerd',
    scenarios: ['sql1', 'sql2', 'db', 'queries', 'updates', 'fortunes-db'],
    note: 'a Workers socket serves only the request that opened it, so each request opens its own PostgreSQL connection; where PostgreSQL is slow to start a connection (20–35 ms on the machine of the committed report, from Node as well: docs/benchmarks/methods.md, Known runtime limits), 100 connections opening at once keep every request past the window, for the bare worker (raw) as much as for the frameworks.',
  },
  {
    runtime: 'workerd',
    pipelined: true,
    note: 'workerd serves pipelined connections unevenly: under -p 10 some wait over autocannon’s 10 s timeout while others are answered, for the bare worker (raw) as much as for the frameworks (docs/benchmarks/methods.md, Known runtime limits); by default the bench runs workerd unpipelined, the load it sustains.',
  },
];

/** The known runtime limit behind a failure under load, if any. */
export function knownLimit(runtime: string, scenario: string, pipelining: number): KnownLimit | undefined {
  return KNOWN_LIMITS.find((k) => k.runtime === runtime && (k.scenarios === undefined || k.scenarios.includes(scenario)) && (!k.pipelined || pipelining > 1));
}
