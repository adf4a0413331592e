// The two-route Rove app behind a bare Deno.serve(app.fetch), as Hono's is served: Rove's core
// without its adapter's serve() (no signals, shutdown, peer address or header checks). Only for
// comparing cold starts (bench/cold-compare.ts); apps should use serve() from rove/deno.
import app from '../../size/rove.ts';

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' }, app.fetch);
