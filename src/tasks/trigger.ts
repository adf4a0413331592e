import type { Handler } from '../core/compose.ts';
import type { TaskList } from './list.ts';

/**
 * A route that runs scheduled tasks on demand, for development and tests, as `wrangler dev
 * --test-scheduled` serves `/__scheduled`: `?cron=<schedule>` runs that schedule's tasks as a tick
 * would (behind the lock, if any), `?name=<task>` runs one task, as its tick would. It answers once the handlers
 * have settled, with what ran; their `waitUntil` work goes on in the background as after a
 * tick. Anyone who can reach it can run your tasks: mount it only in development, or behind
 * authentication.
 *
 * @example
 * if (dev) app.get('/__scheduled', taskTrigger(jobs));
 * // curl 'http://localhost:8000/__scheduled?cron=0+3+*+*+*'
 */
export function taskTrigger(list: TaskList<any>): Handler {
  return async (c) => {
    const cron = c.req.query('cron');
    const name = c.req.query('name');
    if ((cron === undefined) === (name === undefined)) return c.json({ error: 'give ?cron=<schedule> or ?name=<task>' }, 400);
    const init = { env: c.env, keep: (promise: Promise<unknown>) => c.executionCtx.waitUntil(promise) };
    let outcomes: { name: string; ok: boolean }[];
    if (cron !== undefined) {
      if (!list.schedules.includes(cron)) return c.json({ error: 'no task has this schedule', schedules: list.schedules }, 404);
      outcomes = await list.tick(cron, init);
    } else {
      const task = list.tasks.find((t) => t.name === name);
      if (task === undefined) return c.json({ error: 'no task has this name', tasks: list.tasks.map((t) => t.name) }, 404);
      outcomes = await list.tick(task.cron, init, name);
    }
    return c.json({ ran: outcomes.map((o) => ({ name: o.name, ok: o.ok })) });
  };
}
