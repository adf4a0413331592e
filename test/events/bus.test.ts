// The event bus: subscribing, unsubscribing, and listeners that fail.
import { describe, expect, it, vi } from 'vitest';
import { App, EventBus, type RoveEvent } from '../../src/index.ts';

function appWithRoute() {
  const app = new App();
  app.get('/', (c) => c.json({ ok: true }));
  return app;
}

describe('event bus', () => {
  it('app.on(listener) hears every kind, app.on(kind, listener) one kind', () => {
    const bus = new EventBus();
    const all: string[] = [];
    const one: string[] = [];
    bus.on((e) => void all.push(e.kind));
    bus.on('thread:crash', (e) => void one.push(e.kind));
    bus.emit('server:shutdown', { runtime: 'test' });
    bus.emit('thread:crash', { pool: 'p', threadId: 1, taskId: undefined, task: undefined, error: new Error('x'), exitCode: 1 });
    expect(all).toEqual(['server:shutdown', 'thread:crash']);
    expect(one).toEqual(['thread:crash']);
  });

  it('an event carries kind, an epoch timestamp and typed metadata', () => {
    const bus = new EventBus();
    let seen: RoveEvent | undefined;
    bus.on((e) => void (seen = e));
    const before = Date.now();
    bus.emit('server:listening', { runtime: 'test', hostname: '127.0.0.1', port: 1, url: 'http://127.0.0.1:1/' });
    expect(seen).toMatchObject({ kind: 'server:listening', metadata: { port: 1 } });
    expect(seen!.timestamp).toBeGreaterThanOrEqual(before);
    // The union narrows on kind: this line only type-checks because metadata is typed per kind.
    if (seen!.kind === 'server:listening') expect(seen!.metadata.url).toBe('http://127.0.0.1:1/');
  });

  it('listeners run in the order they were added, whatever their kind filter', () => {
    const bus = new EventBus();
    const order: string[] = [];
    bus.on(() => void order.push('all-1'));
    bus.on('server:shutdown', () => void order.push('kind'));
    bus.on(() => void order.push('all-2'));
    bus.emit('server:shutdown', { runtime: 'test' });
    expect(order).toEqual(['all-1', 'kind', 'all-2']);
  });

  it('the returned function unsubscribes, and calling it twice is harmless', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const off = bus.on((e) => void seen.push(e.kind));
    bus.emit('server:shutdown', { runtime: 'a' });
    off();
    off();
    bus.emit('server:shutdown', { runtime: 'b' });
    expect(seen).toHaveLength(1);
    expect(bus.has('server:shutdown')).toBe(false);
  });

  it('unsubscribing during an emit does not skip the next listener', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const off = bus.on(() => {
      seen.push('first');
      off();
    });
    bus.on(() => void seen.push('second'));
    bus.emit('server:shutdown', { runtime: 'test' });
    expect(seen).toEqual(['first', 'second']);
  });

  it('on() refuses what is not a listener', () => {
    const bus = new EventBus();
    expect(() => bus.on('request:complete' as never)).toThrow(TypeError);
    expect(() => bus.on(42 as never)).toThrow(TypeError);
  });

  it('observing is true only while a request event has a listener', () => {
    const app = appWithRoute();
    expect(app.events.observing).toBe(false);
    const offWorker = app.on('thread:timeout', () => {});
    expect(app.events.observing).toBe(false);
    const offComplete = app.on('request:complete', () => {});
    expect(app.events.observing).toBe(true);
    offComplete();
    expect(app.events.observing).toBe(false);
    const offAll = app.on(() => {});
    expect(app.events.observing).toBe(true);
    offAll();
    offWorker();
    expect(app.events.observing).toBe(false);
  });
});

describe('listener isolation', () => {
  it('a throwing listener breaks neither the request nor the listeners after it', async () => {
    const app = appWithRoute();
    const failures: unknown[] = [];
    app.events.onListenerError = (error) => void failures.push(error);
    const after: number[] = [];
    app.on('request:complete', () => {
      throw new Error('listener bug');
    });
    app.on('request:complete', (e) => void after.push(e.metadata.status));
    const res = await app.fetch(new Request('http://localhost/'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(after).toEqual([200]);
    expect((failures[0] as Error).message).toBe('listener bug');
  });

  it('a rejecting listener breaks nothing, and its rejection is reported', async () => {
    const app = appWithRoute();
    const failures: unknown[] = [];
    app.events.onListenerError = (error) => void failures.push(error);
    app.on('request:complete', async () => {
      throw new Error('async listener bug');
    });
    const res = await app.fetch(new Request('http://localhost/'));
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 0));
    expect((failures[0] as Error).message).toBe('async listener bug');
  });

  it('a listener returning null or a value is not mistaken for a failure', async () => {
    const app = appWithRoute();
    const failures: unknown[] = [];
    app.events.onListenerError = (error) => void failures.push(error);
    app.on('request:complete', () => null as never);
    app.on('request:complete', () => 42 as never);
    expect((await app.fetch(new Request('http://localhost/'))).status).toBe(200);
    expect(failures).toEqual([]);
  });

  it('a failing error reporter is swallowed too', async () => {
    const app = appWithRoute();
    app.events.onListenerError = () => {
      throw new Error('reporter bug');
    };
    app.on(() => {
      throw new Error('listener bug');
    });
    expect((await app.fetch(new Request('http://localhost/'))).status).toBe(200);
  });

  it('by default a failing listener is logged once per event kind, not per request', async () => {
    const app = appWithRoute();
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      app.on('request:complete', () => {
        throw new Error('every time');
      });
      for (let i = 0; i < 5; i++) await app.fetch(new Request('http://localhost/'));
      expect(log.mock.calls.filter((c) => String(c[0]).includes('request:complete'))).toHaveLength(1);
    } finally {
      log.mockRestore();
    }
  });

  it("async listener work is handed to the execution context's waitUntil (Workers keep it alive)", async () => {
    const app = appWithRoute();
    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (p: Promise<unknown>) => void kept.push(p) };
    let finished = false;
    app.on('request:complete', async () => {
      await new Promise((r) => setTimeout(r, 10));
      finished = true;
    });
    app.on('request:complete', () => {}); // a synchronous listener hands nothing over
    const res = await app.fetch(new Request('http://localhost/'), {}, ctx);
    expect(res.status).toBe(200);
    expect(kept).toHaveLength(1);
    expect(finished).toBe(false);
    await Promise.all(kept);
    expect(finished).toBe(true);
  });

  it('a rejecting listener hands waitUntil a promise that does not reject', async () => {
    const app = appWithRoute();
    app.events.onListenerError = () => {};
    const kept: Promise<unknown>[] = [];
    app.on('request:complete', () => Promise.reject(new Error('nope')));
    await app.fetch(new Request('http://localhost/'), {}, { waitUntil: (p) => void kept.push(p) });
    await expect(kept[0]).resolves.toBeUndefined();
  });
});
