// Cloudflare Workers, with `compatibility_flags = ["nodejs_compat"]` (AsyncLocalStorage):
// OTEL_EXPORTER_OTLP_ENDPOINT and DOWNSTREAM_URL are vars. The spans are flushed once the
// request's waitUntil work has settled, so the invocation lives until they are sent.
import type { ExecutionContext } from 'rove';
import { createTracedApp } from './app.ts';
import { startTracing } from './tracing.ts';

interface Env {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  DOWNSTREAM_URL?: string;
}

let ready: { app: ReturnType<typeof createTracedApp>; provider: ReturnType<typeof startTracing> } | undefined;

/** Wait for `work`, and for what joins it while waiting; failures are the app's to report. */
async function settled(work: Promise<unknown>[]): Promise<void> {
  for (let seen = 0; seen < work.length; ) {
    const batch = work.slice(seen);
    seen = work.length;
    await Promise.allSettled(batch);
  }
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    // A worker reads its vars per invocation: set up on the first one.
    ready ??= {
      provider: startTracing(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318'),
      app: createTracedApp({ downstream: env.DOWNSTREAM_URL }),
    };
    const work: Promise<unknown>[] = [];
    const keep: ExecutionContext = {
      waitUntil: (p) => {
        work.push(p);
        ctx.waitUntil(p);
      },
      passThroughOnException: () => ctx.passThroughOnException?.(),
    };
    const res = await ready.app.fetch(request, env, keep);
    // The spans of waitUntil work end after the response: flush once it is done.
    ctx.waitUntil(settled(work).then(() => ready?.provider.forceFlush()));
    return res;
  },
};
