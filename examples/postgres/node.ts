// node --conditions=source --import tsx examples/postgres/node.ts   (DATABASE_URL=postgres://…)
// PROCESSES=auto serves on every core: each process opens its own pool.
import { serve } from 'rove/node';
import { processGroup } from 'rove/node/processes';
import { createApp } from './app.ts';
import { pooled } from './db.ts';

const app = createApp((a) => pooled(a, process.env.DATABASE_URL, { max: Number(process.env.DB_POOL ?? 10) }));
const processes = processGroup(process.env.PROCESSES === 'auto' ? 'auto' : Number(process.env.PROCESSES ?? 1));
serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1', processes });
