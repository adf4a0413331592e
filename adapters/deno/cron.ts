// Deno runs an app's scheduled tasks with Deno.cron: locally under --unstable-cron, and on Deno
// Deploy, which reads the crons a deployment registers while its module loads and schedules
// each tick itself, not once per isolate.

import type { App } from '../../src/core/app.ts';
import { settleAll } from '../../src/tasks/run.ts';

declare const Deno: {
  cron?(name: string, schedule: string, options: { signal?: AbortSignal }, handler: () => Promise<void>): Promise<void>;
};

/**
 * Register one Deno.cron per task of `app`; their runs and `waitUntil` work go to `keep`.
 * Returns the function that unregisters them. Throws, saying which flag is missing, when this
 * Deno has no Deno.cron.
 */
export function startDenoCron(app: App<any>, env: () => unknown, keep: (promise: Promise<unknown>, label: string) => void): () => void {
  const list = app.settings.tasks;
  if (list === undefined || list.tasks.length === 0) return () => {};
  if (typeof Deno.cron !== 'function') {
    throw new Error('rove: this app has scheduled tasks, and Deno.cron needs the --unstable-cron flag (or "unstable": ["cron"] in deno.json)');
  }
  const stop = new AbortController();
  for (const task of list.tasks) {
    // Deno.cron's own promise settles when the cron is unregistered.
    Deno.cron(task.name, task.cron, { signal: stop.signal }, async () => {
      // The run ends when its waitUntil work has too: Deploy keeps the isolate for no longer.
      const work: Promise<unknown>[] = [];
      const kept = (promise: Promise<unknown>, label: string) => {
        work.push(promise);
        keep(promise, label);
      };
      await list.tick(task.cron, { env: env(), keep: kept }, task.name);
      await settleAll(work);
    }).catch(() => {});
  }
  return () => stop.abort();
}
