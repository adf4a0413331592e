// Deno: npm run tasks:deno (deno run --unstable-cron …): Deno.cron runs the schedule. PORT, HOST,
// TRIGGER=1, SHUTDOWN_MS.
import { serve } from 'rove/deno';
import { createTasksApp } from './app.ts';
import { optionsFrom } from './config.ts';

const { app } = createTasksApp(optionsFrom(Deno.env.toObject()));
serve(app, {
  port: Number(Deno.env.get('PORT') ?? 8000),
  hostname: Deno.env.get('HOST') ?? '127.0.0.1',
  shutdownTimeoutMs: Number(Deno.env.get('SHUTDOWN_MS') ?? 10_000),
});
