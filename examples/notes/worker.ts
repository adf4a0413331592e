// Cloudflare Workers: npm run notes:workers (wrangler dev with examples/notes/wrangler.toml).
// Settings come from `[vars]` (and secrets), which a worker only sees with its first request,
// so the app is built then, once per isolate. Sessions live in the SESSIONS KV namespace;
// /static/* comes from Workers Static Assets through the ASSETS binding.

import type { ExecutionContext } from 'rove';
import { toWorker } from 'rove/cloudflare';
import { type KVNamespaceLike, kvStore } from 'rove/session';
import { createNotesApp, notesConfig } from './app.ts';

interface Env {
  SESSIONS: KVNamespaceLike;
  ASSETS: { fetch(request: Request): Promise<Response> };
  [name: string]: unknown;
}

let worker: ReturnType<typeof toWorker> | undefined;

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext) {
    worker ??= toWorker(createNotesApp({ ...notesConfig(env), store: kvStore((c) => (c.env as Env).SESSIONS) }));
    return worker.fetch(request, env, ctx);
  },
};
