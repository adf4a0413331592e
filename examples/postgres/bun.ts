// bun examples/postgres/bun.ts   (DATABASE_URL=postgres://…; PROCESSES=auto for every core)
import { serve } from 'rove/bun';
import { processGroup } from 'rove/bun/processes';
import { createApp } from './app.ts';
import { pooled } from './db.ts';

const app = createApp((a) => pooled(a, Bun.env.DATABASE_URL, { max: Number(Bun.env.DB_POOL ?? 10) }));
const processes = processGroup(Bun.env.PROCESSES === 'auto' ? 'auto' : Number(Bun.env.PROCESSES ?? 1));
serve(app, { port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1', processes });
