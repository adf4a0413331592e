// examples/tasks's worker inside workerd: toWorker's `scheduled`, called with the pool's scheduled
// controller as Cloudflare's cron trigger calls it, runs the trigger's tasks, and their waitUntil
// work lands through the invocation's execution context. A task list fired in process works too.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { toWorker } from 'rove/cloudflare';
import { describe, expect, it } from 'vitest';
import { createTasksApp } from '../../examples/tasks/app.ts';

const json = { 'content-type': 'application/json' };
const bindings = env as unknown as Record<string, unknown>;

describe('scheduled tasks inside workerd', () => {
  it('the cron trigger runs the nightly cleanup, and its audit line lands through ctx.waitUntil', async () => {
    const worker = toWorker(createTasksApp({ auditDelayMs: 20 }).app);
    const call = async (path: string, init?: RequestInit) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(`http://worker${path}`, init), bindings, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    await call('/items', { method: 'POST', headers: json, body: JSON.stringify({ text: 'expired', ttlSeconds: 0 }) });
    await call('/items', { method: 'POST', headers: json, body: JSON.stringify({ text: 'kept' }) });
    const controller = createScheduledController({ scheduledTime: new Date('2026-12-07T03:00:00Z'), cron: '0 3 * * *' });
    const ctx = createExecutionContext();
    await worker.scheduled(controller, bindings, ctx);
    expect(await (await call('/audit')).json()).toEqual([]); // still in the background
    await waitOnExecutionContext(ctx);
    expect(await (await call('/audit')).json()).toEqual(['cleanup removed 1']);
    expect(((await (await call('/items')).json()) as { text: string }[]).map((i) => i.text)).toEqual(['kept']);
  });

  it("gives the heartbeat the trigger's scheduled minute", async () => {
    const worker = toWorker(createTasksApp().app);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date('2026-12-07T03:04:00Z'), cron: '* * * * *' }), bindings, ctx);
    await waitOnExecutionContext(ctx);
    const res = await worker.fetch(new Request('http://worker/health'), bindings, createExecutionContext());
    expect(await res.json()).toEqual({ lastHeartbeat: Date.parse('2026-12-07T03:04:00Z') });
  });

  it('jobs.fire runs a task in process, as in a Node test', async () => {
    const { jobs, app } = createTasksApp();
    await app.request('/items', { method: 'POST', headers: json, body: JSON.stringify({ text: 'old', ttlSeconds: 0 }) });
    expect(await jobs.fire('cleanup')).toEqual({ name: 'cleanup', ok: true });
    expect(await (await app.request('/audit')).json()).toEqual(['cleanup removed 1']);
  });
});
