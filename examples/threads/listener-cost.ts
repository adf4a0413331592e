// The request path's own cost with and without one empty listener, in process
// (no sockets, no load generator): GET /test through app.handle as the Node
// adapter calls it (a plain request object, a light response), interleaved
// rounds, fastest round per variant. Runs on any runtime:
//   node --conditions=source --import tsx examples/threads/listener-cost.ts
//   deno run examples/threads/listener-cost.ts
//   bun examples/threads/listener-cost.ts
import { App } from '../../src/index.ts';

const app = new App();
app.get('/test', (c) => c.json({ hello: 'world!' }));

const ROUNDS = 20;
const PER_ROUND = 100_000;
const noBody = () => Promise.reject(new Error('no body'));
const request = {
  method: 'GET',
  url: 'http://127.0.0.1/test',
  headers: new Headers(),
  body: null,
  signal: new AbortController().signal,
  arrayBuffer: noBody,
  text: noBody,
  json: noBody,
};
const best = { off: Infinity, on: Infinity };
let stop: (() => void) | undefined;

async function round(variant: 'off' | 'on'): Promise<void> {
  if (variant === 'on' && stop === undefined) stop = app.on(() => {});
  if (variant === 'off' && stop !== undefined) {
    stop();
    stop = undefined;
  }
  const t0 = performance.now();
  for (let i = 0; i < PER_ROUND; i++) {
    const res = app.handle(request, {}, undefined, true) as { status: number };
    if (res.status !== 200) throw new Error('unexpected status');
  }
  best[variant] = Math.min(best[variant], ((performance.now() - t0) * 1e6) / PER_ROUND);
}

for (let r = 0; r < 3; r++) for (const v of ['off', 'on'] as const) await round(v); // warm-up
best.off = best.on = Infinity;
for (let r = 0; r < ROUNDS; r++) for (const v of ['off', 'on'] as const) await round(v);

const g = globalThis as { Deno?: unknown; Bun?: unknown };
const runtime = g.Deno ? 'deno' : g.Bun ? 'bun' : 'node';
console.log(
  // Compare the difference with a served request's whole CPU cost (the bench reports it), not with this bare path.
  `${runtime}: off ${best.off.toFixed(0)} ns/request, on ${best.on.toFixed(0)} ns/request: one empty listener adds ${(best.on - best.off).toFixed(0)} ns per request`,
);
