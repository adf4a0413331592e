// Cloudflare Workers: npm run notes:workers (wrangler dev with examples/notes/wrangler.toml).
// Settings come from `[vars]` and secrets, which a worker sees only with each request, as
// `c.env`: app.ts reads them there (`keys: (c) => [...]`), so the app is built here, once, at
// module scope. Sessions live in the SESSIONS KV namespace; /static/* comes from Workers
// Static Assets through the ASSETS binding.

import { toWorker } from 'rove/cloudflare';
import { type KVNamespaceLike, kvStore } from 'rove/session';
import { createNotesApp } from './app.ts';

interface Env {
  SESSIONS: KVNamespaceLike;
  ASSETS: { fetch(request: Request): Promise<Response> };
}

export default toWorker(createNotesApp({ store: kvStore((c) => (c.env as unknown as Env).SESSIONS) }));
