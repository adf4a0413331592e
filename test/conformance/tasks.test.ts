// examples/tasks on every runtime: each task fired through the runtime's own trigger (Workers'
// cron trigger under Miniflare, as `wrangler dev --test-scheduled` fires it; /__scheduled on the
// servers) leaves the same state behind. The real clock is tested in task-clock.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_RUNTIMES, type Running, start } from './servers.ts';

const json = { 'content-type': 'application/json' };

/** The runtime's way of firing a cron trigger. */
const trigger = (s: Running, cron: string) =>
  `${s.url}${s.runtime === 'workerd' ? '/cdn-cgi/handler/scheduled' : '/__scheduled'}?cron=${encodeURIComponent(cron)}`;

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(CONFORMANCE_RUNTIMES)('examples/tasks on %s', (runtime) => {
  let s: Running;
  beforeAll(async () => {
    s = await start(runtime, 'examples/tasks', '/', { TRIGGER: '1', AUDIT_DELAY_MS: '100' });
  }, 60_000);
  afterAll(() => s?.stop());

  it("the nightly cleanup removes what expired, and its waitUntil audit line lands after the trigger's answer", async () => {
    for (const item of [{ text: 'expired', ttlSeconds: 0 }, { text: 'kept' }]) {
      expect((await fetch(`${s.url}/items`, { method: 'POST', headers: json, body: JSON.stringify(item) })).status).toBe(201);
    }
    const fired = await fetch(trigger(s, '0 3 * * *'));
    await fired.arrayBuffer();
    expect(fired.status).toBe(200);
    const items = (await (await fetch(`${s.url}/items`)).json()) as { text: string }[];
    expect(items.map((i) => i.text)).toEqual(['kept']);
    const cleanupLines = async () => ((await (await fetch(`${s.url}/audit`)).json()) as string[]).filter((l) => l.startsWith('cleanup'));
    expect(await until(cleanupLines, (l) => l.length > 0)).toEqual(['cleanup removed 1']);
  });

  it('the heartbeat runs for the minute it was fired in', async () => {
    const before = Date.now();
    const fired = await fetch(trigger(s, '* * * * *'));
    await fired.arrayBuffer();
    expect(fired.status).toBe(200);
    const health = async () => ((await (await fetch(`${s.url}/health`)).json()) as { lastHeartbeat: number | null }).lastHeartbeat;
    const beat = await until(health, (v) => v !== null);
    expect(beat! % 60_000).toBe(0);
    expect(beat!).toBeGreaterThanOrEqual(before - (before % 60_000));
  });

  it('a trigger for a schedule the app lacks runs nothing, and the app keeps serving', async () => {
    const fired = await fetch(trigger(s, '5 4 * * *'));
    await fired.arrayBuffer();
    if (runtime === 'workerd') {
      // The trigger itself succeeds; the worker logs what to fix.
      expect(fired.status).toBe(200);
      expect(
        await until(
          async () => s.child.output(),
          (out) => out.includes('no task has that schedule'),
        ),
      ).toContain('check wrangler.toml');
    } else {
      expect(fired.status).toBe(404); // the trigger route's answer
    }
    expect((await fetch(`${s.url}/`)).status).toBe(200);
  });
});
