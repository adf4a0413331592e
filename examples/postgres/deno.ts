// deno run --allow-net --allow-env --allow-read examples/postgres/deno.ts   (DATABASE_URL=postgres://…)
// PROCESSES=auto (and --allow-run, to start the children) serves on every core.
import { serve } from 'rove/deno';
import { processGroup } from 'rove/deno/processes';
import { createApp } from './app.ts';
import { pooled } from './db.ts';

const app = createApp((a) => pooled(a, Deno.env.get('DATABASE_URL'), { max: Number(Deno.env.get('DB_POOL') ?? 10) }));
const processes = processGroup(Deno.env.get('PROCESSES') === 'auto' ? 'auto' : Number(Deno.env.get('PROCESSES') ?? 1));
serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1', processes });
