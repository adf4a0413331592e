// Cloudflare Workers (no threads): the pool runs tasks inline by default.
// Requests with `x-pool: reject` go to an app whose pool answers 503 instead.
import { toWorker } from 'rove/cloudflare';
import { makeApp } from './app.ts';

const inline = toWorker(makeApp({ timeoutMs: 1000 }).app);
const reject = toWorker(makeApp({ noThreads: 'reject' }).app);

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: { waitUntil(p: Promise<unknown>): void }) {
    return (request.headers.get('x-pool') === 'reject' ? reject : inline).fetch(request, env, ctx);
  },
};
