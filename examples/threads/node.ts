import { serve } from 'rove/node';
import { threads } from 'rove/node/threads';
import { makeApp, optionsFrom } from './app.ts';

const { app } = makeApp(optionsFrom((name) => process.env[name]));
// On Node the pool's threads (node:worker_threads) are passed in; Deno and Bun start Web Workers themselves.
serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1', threads });
