// deno run --unstable-cron test/tasks/deno-cron-check.ts < schedules (one JSON array on stdin):
// prints the schedules Deno.cron refuses, as a JSON array. Each is registered, then withdrawn
// before the next: Deno holds at most 100 crons at once.
declare const Deno: {
  stdin: { readable: ReadableStream<Uint8Array> };
  cron(name: string, schedule: string, options: { signal: AbortSignal }, handler: () => void): Promise<void>;
};

const input = JSON.parse(await new Response(Deno.stdin.readable).text()) as string[];
const refused: string[] = [];
for (const [i, schedule] of input.entries()) {
  const stop = new AbortController();
  let registered: Promise<void>;
  try {
    registered = Deno.cron(`check-${i}`, schedule, { signal: stop.signal }, () => {});
  } catch (error) {
    refused.push(schedule);
    if (!String(error).includes('Invalid cron schedule')) throw error;
    continue;
  }
  stop.abort();
  await registered.catch(() => {});
}
console.log(JSON.stringify(refused));
