// What a parity test asserts is empty: the differences `rove parity` cannot explain.
import type { RequestResult } from '../../adapters/cli/parity/run.ts';

/** The unexplained differences, one line each: `request: aspect: runtimes=value; runtimes=value`. */
export function unexplained(requests: RequestResult[]): string[] {
  return requests.flatMap((r) =>
    r.differences
      .filter((d) => d.known === undefined)
      .map((d) => `${r.name}: ${d.aspect}: ${d.groups.map((g) => `${g.runtimes.join(',')}=${g.value}`).join('; ')}`),
  );
}
