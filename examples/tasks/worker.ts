// Cloudflare Workers: npm run tasks:workers (wrangler dev --test-scheduled, then
// curl 'http://localhost:8787/__scheduled?cron=0+3+*+*+*'). toWorker's `scheduled` runs the
// tasks of the trigger's cron; wrangler.toml's [triggers] lists them (`npx rove crons
// examples/tasks/app.ts` prints the block).
import { toWorker } from 'rove/cloudflare';
import { createTasksApp } from './app.ts';

export default toWorker(createTasksApp().app);
