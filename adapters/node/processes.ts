// rove/node/processes: Node's server group, node:cluster. The children re-run this script with
// the same flags (cluster.fork), and their listen() shares one socket that the primary hands
// connections from, so no SO_REUSEPORT is needed (Node 20 has none).
import cluster, { type Worker } from 'node:cluster';
import { childIndex, type Launch, type Member, makeGroup, type ProcessCount } from '../shared/processes.ts';
import type { ProcessGroup } from '../shared/serve-options.ts';

export type { ProcessCount } from '../shared/processes.ts';
export type { ProcessGroup } from '../shared/serve-options.ts';

/**
 * Serve with this many processes on one port ('auto': one per core), through node:cluster.
 * The process that calls serve() becomes the primary: it starts the others (each re-runs
 * this script and takes the same serve() call as a child), restarts one that dies, and stops
 * them all on SIGINT/SIGTERM or `close()`. See docs/processes.md.
 *
 * @example
 * import { serve } from 'rove/node';
 * import { processGroup } from 'rove/node/processes';
 * serve(app, { port: 8000, processes: processGroup('auto') });
 */
export function processGroup(processes: ProcessCount): ProcessGroup<'node'> {
  return makeGroup(
    'node',
    processes,
    () => cluster.isWorker && childIndex() !== undefined,
    () => clusterLaunch,
  );
}

const clusterLaunch: Launch = (_index, env) => {
  const worker: Worker = cluster.fork(env);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    worker.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const listening = new Promise<number>((resolve, reject) => {
    worker.once('listening', (address) => resolve(address.port));
    exited.then(({ code, signal }) => reject(new Error(`server process ${worker.process.pid} exited before listening (${signal ?? code})`)));
  });
  listening.catch(() => {});
  const member: Member = {
    pid: worker.process.pid,
    listening,
    exited,
    signal(sig) {
      try {
        worker.process.kill(sig);
      } catch {
        // already gone
      }
    },
  };
  return member;
};
