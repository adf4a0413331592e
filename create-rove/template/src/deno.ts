// deno run --allow-net --allow-env --allow-read --unstable-cron src/deno.ts
import { serve } from 'rove/deno';
import { app } from './app.ts';

serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
