// Work a server keeps for its shutdown: what `waitUntil` hands it, and scheduled tasks while they
// run. Each piece carries a label, so work still running when the grace period ends is named.

import type { App } from '../../src/core/app.ts';

const labels = new WeakMap<Promise<unknown>, string>();

/** Keep `promise` (which must not reject) in `pending` under `label` until it settles. */
export function keep(pending: Set<Promise<unknown>>, promise: Promise<unknown>, label: string): void {
  const p = promise.finally(() => pending.delete(p));
  labels.set(p, label);
  pending.add(p);
}

/** What is still in `pending`, by label, with a count where a label repeats. */
export function unfinished(pending: Set<Promise<unknown>>): string[] {
  const counts = new Map<string, number>();
  for (const p of pending) {
    const label = labels.get(p) ?? 'background work';
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, n]) => (n > 1 ? `${label} (×${n})` : label));
}

/**
 * Run the app's scheduled tasks with timers (Node and Bun), their runs and `waitUntil` work kept
 * in `pending`. Returns the function that stops the timers; nothing to stop without tasks.
 */
export function startTimers(app: App<any>, env: unknown, pending: Set<Promise<unknown>>): () => void {
  const list = app.settings.tasks;
  if (list === undefined) return () => {};
  return list.start({ env, keep: (promise, label) => keep(pending, promise, label) });
}
