// With nobody listening for request events, the request path does no event
// work at all: no clock is read, no event or metadata object is made, nothing
// is emitted. Asserted through spies, not timing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, EventBus, HttpError } from '../../src/index.ts';

function makeApp() {
  const app = new App({ bodyLimit: 8, maxUrlLength: 64 });
  app.use(async (_c, next) => {
    await next();
  });
  app.get('/sync', (c) => c.json({ hello: 'world!' }));
  app.get('/async', async (c) => {
    await Promise.resolve();
    return c.text('later');
  });
  app.get('/throws', () => {
    throw new Error('x');
  });
  app.get('/http', () => {
    throw new HttpError(418);
  });
  app.post('/body', async (c) => c.json(await c.req.json()));
  app.get('/p/:x', (c) => c.text(c.req.param('x') ?? ''));
  return app;
}

const REQUESTS: [string, RequestInit?][] = [
  ['/sync'],
  ['/async'],
  ['/throws'],
  ['/http'],
  ['/nowhere'],
  ['/sync', { method: 'POST' }], // 405
  ['/sync', { method: 'OPTIONS' }],
  ['/sync', { method: 'HEAD' }],
  ['/body', { method: 'POST', body: '{"far":"too long for the limit"}' }], // 413
  ['/body', { method: 'POST', body: '{bad' }], // 400
  [`/${'x'.repeat(100)}`], // 414
  ['/p/%E0%A4%A'], // 400 malformed
];

async function serveAll(app: App): Promise<number[]> {
  const statuses: number[] = [];
  for (const [path, init] of REQUESTS) {
    const res = await app.fetch(new Request(`http://localhost${path}`, init));
    await res.arrayBuffer();
    statuses.push(res.status);
    // The Node adapter's light path too.
    const light = await app.handle(new Request(`http://localhost${path}`, init), {}, undefined, true);
    void light;
  }
  return statuses;
}

describe('no event work when nobody listens', () => {
  // Every clock read is recorded with its stack; only reads made from Rove's
  // own code (the stack names src/) count, so the test runner's clocks don't.
  let clockStacks: string[];
  const coreClockReads = () => clockStacks.filter((s) => /[/\\]src[/\\]/.test(s)).length;
  let emit: ReturnType<typeof vi.spyOn>;
  let request: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    clockStacks = [];
    const realPerf = performance.now.bind(performance);
    const realDate = Date.now;
    vi.spyOn(performance, 'now').mockImplementation(() => {
      clockStacks.push(new Error().stack ?? '');
      return realPerf();
    });
    vi.spyOn(Date, 'now').mockImplementation(() => {
      clockStacks.push(new Error().stack ?? '');
      return realDate();
    });
    // The escaped error of /throws is logged by default: that is the error path, not event work.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    emit = vi.spyOn(EventBus.prototype, 'emit');
    request = vi.spyOn(EventBus.prototype, 'request');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('reads no clock and emits nothing, for every way a request can end', async () => {
    const app = makeApp();
    const statuses = await serveAll(app);
    expect(statuses).toEqual([200, 200, 500, 418, 404, 405, 204, 200, 413, 400, 414, 400]);
    expect(coreClockReads()).toBe(0);
    expect(emit).not.toHaveBeenCalled();
    expect(request).not.toHaveBeenCalled();
  });

  it('listeners for other kinds (workers, server) do not turn request events on', async () => {
    const app = makeApp();
    app.on('thread:timeout', () => {});
    app.on('server:listening', () => {});
    await serveAll(app);
    expect(coreClockReads()).toBe(0);
    expect(request).not.toHaveBeenCalled();
  });

  it('makes no metadata objects: the request observer is never entered', async () => {
    // RequestInfo is only built inside observeRequest, which reads the clock first.
    const app = makeApp();
    await serveAll(app);
    expect(clockStacks.filter((s) => s.includes('observeRequest'))).toHaveLength(0);
  });

  it('the spies do see the work once a listener is attached, and stop seeing it once it leaves', async () => {
    const app = makeApp();
    const off = app.on('request:complete', () => {});
    await serveAll(app);
    expect(coreClockReads()).toBeGreaterThan(0);
    expect(request).toHaveBeenCalledTimes(REQUESTS.length * 2);
    off();
    clockStacks.length = 0;
    request.mockClear();
    await serveAll(app);
    expect(coreClockReads()).toBe(0);
    expect(request).not.toHaveBeenCalled();
  });
});
