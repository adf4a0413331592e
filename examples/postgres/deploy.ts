// Deno Deploy, or locally: deno serve --allow-net --allow-env --allow-read examples/postgres/deploy.ts
// (`deno serve --parallel` runs one isolate per core; each keeps its own pool.)
import { toDeploy } from 'rove/deno-deploy';
import { createApp } from './app.ts';
import { pooled } from './db.ts';

export default toDeploy(createApp((a) => pooled(a, Deno.env.get('DATABASE_URL'), { max: Number(Deno.env.get('DB_POOL') ?? 5) })));
