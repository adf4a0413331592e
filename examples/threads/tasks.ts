// The task module the thread pool runs: each export is a task. Payloads and
// results cross threads by structured clone.

/** The load test's CPU loop (the test-worker scenario): 50,000 steps of Math.sqrt. */
export function cpu(n: number = 50_000): number {
  let value = 0;
  for (let i = 0; i < n; i++) value += Math.sqrt(i);
  return value;
}

export default cpu;

/** Blocks the thread: only terminating it stops this early. */
export function spin(ms: number): number {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy
  }
  return ms;
}

export async function sleep(ms: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return ms;
}

/** Kills the thread with an uncaught error, outside the task's own promise. */
export function crash(): Promise<never> {
  setTimeout(() => {
    throw new Error('the worker crashed on purpose');
  });
  return new Promise(() => {});
}

/** A task that throws: the client must not see this message outside dev mode. */
export function fail(): never {
  throw new Error('internal detail: the database password is hunter2');
}

/** A task may answer a 4xx by throwing an error with a `status`. */
export function invalid(input: unknown): number {
  if (typeof input !== 'number') throw Object.assign(new Error('n must be a number'), { status: 422 });
  return input;
}

export function echo<T>(value: T): T {
  return value;
}
