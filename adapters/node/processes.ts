// Node's server group: node:cluster. The children re-run this script with the
// same flags (cluster.fork), and their listen() shares one socket that the
// primary hands connections from, so no SO_REUSEPORT is needed (Node 20 has none).
import cluster, { type Worker } from 'node:cluster';
import type { Launch, Member } from '../shared/processes.ts';

/** True in a node:cluster worker that this module started. */
export function isClusterChild(): boolean {
  return cluster.isWorker;
}

export const clusterLaunch: Launch = (_index, env) => {
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
