// Deno Deploy, or locally: deno serve --unstable-cron --allow-env examples/tasks/deploy.ts.
// toDeploy registers the tasks with Deno.cron as the module loads, as Deploy requires.
import { toDeploy } from 'rove/deno-deploy';
import { createTasksApp } from './app.ts';
import { optionsFrom } from './config.ts';

export default toDeploy(createTasksApp(optionsFrom(Deno.env.toObject())).app);
