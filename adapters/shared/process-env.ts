// The environment variables a server group sets for its children, apart from the group code so
// that an adapter can tell a child without loading node's process APIs (see adapters/deno/index.ts).

/** Set in a child's environment: its index in the group. */
export const CHILD_ENV = 'ROVE_PROCESS';
/** Set in a child's environment: the port the group listens on (the primary picks it when asked for 0). */
export const PORT_ENV = 'ROVE_PROCESS_PORT';

/** Throws for a `processes` option that is neither 'auto' nor a positive integer (undefined: one process). */
export function checkProcesses(processes: number | 'auto' | undefined): void {
  if (processes === undefined || processes === 'auto') return;
  if (!Number.isInteger(processes) || processes < 1) throw new RangeError(`processes must be a positive integer or 'auto', got ${String(processes)}`);
}
