// The two-route Rove app behind a bare Bun.serve({ fetch: app.fetch }), as Hono's is served: Rove's
// core without its adapter's serve() (no signals, shutdown, peer address or header checks). Only
// for comparing cold starts (bench/cold-compare.ts); apps should use serve() from rove/bun.
import app from '../../size/rove.ts';

Bun.serve({ port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1', fetch: app.fetch });
