import type { Context } from '../../../src/index.ts';

// The loop of /test-cpu, run in the app's thread pool (the `workers` variant). Mirrors examples/bench/app.ts:
// 501 while the pool is missing from this build; without a pool, c.threads.run() answers 503 (docs/benchmarks/methods.md).
export async function GET(c: Context) {
  const runner = (c as unknown as { threads?: { run(payload?: unknown, o?: { task: string }): Promise<number> } }).threads;
  if (!runner) return c.json({ title: 'Not Implemented', status: 501, detail: 'the thread pool is not available in this Rove build yet' }, 501);
  return c.json({ hello: 'worker', value: await runner.run(undefined, { task: 'cpu' }) });
}
