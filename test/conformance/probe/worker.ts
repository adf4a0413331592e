// Workers: the probe's options arrive as bindings with the first request, so the app is made then.

import type { ExecutionContext } from 'rove';
import { toWorker } from 'rove/cloudflare';
import { makeApp, probeOptions } from './app.ts';

type Bindings = Record<string, string | undefined>;
let worker: ReturnType<typeof toWorker<Bindings>> | undefined;

export default {
  fetch(request: Request, env: Bindings, ctx: ExecutionContext): Response | Promise<Response> {
    worker ??= toWorker<Bindings>(makeApp(probeOptions((name) => env[name])));
    return worker.fetch(request, env, ctx);
  },
};
