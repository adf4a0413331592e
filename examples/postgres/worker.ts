// Cloudflare Workers: wrangler deploy -c examples/postgres/wrangler.toml
// A connection per request: through Hyperdrive when the binding exists, else DATABASE_URL.
import { toWorker } from 'rove/cloudflare';
import { createApp } from './app.ts';
import { perRequest } from './db.ts';

export default toWorker(createApp((a) => perRequest(a, (env) => env.HYPERDRIVE?.connectionString ?? env.DATABASE_URL)));
