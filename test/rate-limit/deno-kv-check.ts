// Run by deno-kv-store.test.ts under `deno run --unstable-kv`: denoKvStore on a real Deno KV
// (in memory, or the file given), printing what it saw as one JSON line.
import { App } from '../../src/index.ts';
import { denoKvStore, rateLimit } from '../../src/middleware/rate-limit/index.ts';

declare const Deno: { openKv(path?: string): Promise<any>; args: string[] };

const kv = await Deno.openKv(Deno.args[0] ?? ':memory:');
const store = denoKvStore(kv);
const c = undefined as never;
const hits = await Promise.all(Array.from({ length: 20 }, () => store.hit('k', 60_000, c)));
const counts = hits.map((h) => h.count).sort((a, b) => a - b);
const expiring = await store.hit('short', 1, c);
await new Promise((r) => setTimeout(r, 20));
const after = await store.hit('short', 1, c);

const app = new App();
app.use(rateLimit({ window: 60, limit: 2, key: () => 'client', store }));
app.get('/', (ctx) => ctx.text('ok'));
const statuses: number[] = [];
for (let i = 0; i < 3; i++) statuses.push((await app.request('/')).status);
console.log(JSON.stringify({ counts, expiring: expiring.count, after: after.count, statuses }));
kv.close();
