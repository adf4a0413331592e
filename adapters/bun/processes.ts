// rove/bun/processes: Bun's server group. Each child is a copy of this command listening
// with SO_REUSEPORT (Bun.serve's reusePort); the primary talks to them over an IPC channel.

import { childIndex, makeGroup, type ProcessCount, spawnLaunch } from '../shared/processes.ts';
import type { ProcessGroup } from '../shared/serve-options.ts';

export type { ProcessCount } from '../shared/processes.ts';
export type { ProcessGroup } from '../shared/serve-options.ts';

/**
 * Serve with this many processes on one port ('auto': one per core), each Bun.serve with
 * reusePort. The process that calls serve() becomes the primary: it starts the others (each
 * re-runs this script and takes the same serve() call as a child), restarts one that dies,
 * and stops them all on SIGINT/SIGTERM or `close()`. See docs/processes.md.
 *
 * @example
 * import { serve } from 'rove/bun';
 * import { processGroup } from 'rove/bun/processes';
 * serve(app, { port: 8000, processes: processGroup('auto') });
 */
export function processGroup(processes: ProcessCount): ProcessGroup<'bun'> {
  return makeGroup(
    'bun',
    processes,
    () => childIndex() !== undefined,
    () => spawnLaunch(),
  );
}
