// Run by deno-kv-lock.test.ts under `deno run --unstable-kv`: twenty task lists, as twenty
// processes would hold them, share one Deno KV lock and see the same two ticks. Prints how many
// runs each tick had, and whether a later tick ran again, as one JSON line.
import { kvLock, tasks } from '../../src/tasks/index.ts';

declare const Deno: { openKv(path?: string): Promise<any>; args: string[] };

const kv = await Deno.openKv(Deno.args[0] ?? ':memory:');
const runs = new Map<number, number>();
const lists = Array.from({ length: 20 }, () =>
  tasks({ lock: kvLock(kv) }).cron('sweep', '* * * * *', (t) => {
    runs.set(t.scheduledTime, (runs.get(t.scheduledTime) ?? 0) + 1);
  }),
);
for (const tick of [120_000, 180_000]) {
  // Clocks a few seconds apart: each process sees the tick at its own moment in the minute.
  await Promise.all(lists.map((list, i) => list.tick('* * * * *', { scheduledTime: tick + i * 500 })));
}
console.log(JSON.stringify({ runs: Object.fromEntries(runs) }));
kv.close();
