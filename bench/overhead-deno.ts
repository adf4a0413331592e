// Deno's side of bench/overhead.ts: the bench app's handler bound as the Deno adapters bind it
// (their respond, finish, one-header lookup and request check), against the bare handler with its
// app layer, on Requests built in code. Interleaved rounds of 20,000 calls, wall time per call,
// median and lower quartile of 16 rounds; building the Request is not timed. A Request built in
// code has no Deno one-header lookup: its headers come from `request.headers`, where a served
// request asks Deno's header map one name at a time (one op per header).
//
//   deno run -A bench/overhead-deno.ts [test|chain|params|cors-preflight] [rove|raw]

import { denoHeader } from '../adapters/deno/header.ts';
import { checkDenoRequest } from '../adapters/deno/request-check.ts';
import { denoAddress } from '../adapters/deno/serve-info.ts';
import { denoFinish } from '../adapters/deno/websocket.ts';
import { respondChecked } from '../adapters/shared/checked-response.ts';
import { backgroundContext } from '../adapters/shared/serve-options.ts';
import { createBenchApp } from '../examples/bench/app.ts';
import { OVERHEAD_REQUESTS } from './lib/overhead-requests.ts';
import { withAppLayer } from './raw/app-layer.ts';
import { handle } from './raw/handler.ts';

const [scen = 'cors-preflight', only] = Deno.args;
const make = OVERHEAD_REQUESTS[scen];
if (!make) throw new Error(`unknown scenario ${scen} (known: ${Object.keys(OVERHEAD_REQUESTS).join(', ')})`);
const app = createBenchApp({});
const ctx = backgroundContext(new Set());
const bound = app.bind({ address: denoAddress, header: denoHeader, respond: respondChecked, finish: denoFinish(ctx, null) });
const env = {};
const fns: Record<string, (r: Request) => Response | Promise<Response>> = {
  rove: (r) => checkDenoRequest(r) ?? bound(r, env, ctx, undefined),
  raw: withAppLayer(handle),
};
const N = 20000;
async function one(fn: (r: Request) => Response | Promise<Response>): Promise<number> {
  const reqs = Array.from({ length: N }, make);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    let x = fn(reqs[i]!);
    if (x instanceof Promise) x = await x;
    if (x.body) await x.arrayBuffer();
  }
  return ((performance.now() - t0) * 1000) / N;
}
const t: Record<string, number[]> = { rove: [], raw: [] };
for (let rep = 0; rep < 16; rep++) for (const f of only ? [only] : rep % 2 ? ['rove', 'raw'] : ['raw', 'rove']) t[f]!.push(await one(fns[f]!));
const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const q1 = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 2]!;
for (const f of Object.keys(t))
  if (t[f]!.length) console.log(`${scen} ${f}: median ${med(t[f]!).toFixed(2)} µs  q1 ${q1(t[f]!).toFixed(2)} µs (excl. Request build)`);
