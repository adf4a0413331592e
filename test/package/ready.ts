import type { Child } from '../../dev/proc.ts';

/** Waits until `url`/ answers 2xx; fails with the child's output when it exits or the time is up. */
export async function ready(child: Child, url: string, label: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exited) throw new Error(`${label} exited: ${child.output()}`);
    try {
      if ((await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${label} did not start: ${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
