// examples/tasks under `wrangler dev --test-scheduled`, the way a Workers user fires a cron
// trigger by hand: /__scheduled?cron=… reaches toWorker's `scheduled`, offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, freePort, resolveBin, startChild, stopChild } from '../../dev/proc.ts';

describe('wrangler dev --test-scheduled', () => {
  let child: Child;
  let url = '';
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = startChild(
      resolveBin('wrangler'),
      [
        'dev',
        '-c',
        'examples/tasks/wrangler.toml',
        '--test-scheduled',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--inspector-port',
        String(await freePort()),
      ],
      { CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exited) throw new Error(`wrangler exited:\n${child.output()}`);
      const ok = await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`wrangler dev did not start in 60 s:\n${child.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 90_000);
  afterAll(() => child && stopChild(child));

  it("fires the cleanup's trigger, and its waitUntil audit line lands", async () => {
    const post = (body: unknown) => fetch(`${url}/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ text: 'expired', ttlSeconds: 0 })).status).toBe(201);
    const fired = await fetch(`${url}/__scheduled?cron=${encodeURIComponent('0 3 * * *')}`);
    expect(await fired.text()).toBe('Ran scheduled event');
    const deadline = Date.now() + 5000;
    let audit: string[] = [];
    while (audit.length === 0 && Date.now() < deadline) audit = (await (await fetch(`${url}/audit`)).json()) as string[];
    expect(audit).toEqual(['cleanup removed 1']);
  });
});
