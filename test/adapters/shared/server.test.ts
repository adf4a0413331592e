// The shared lifecycle (adapters/shared/server.ts) against a fake runtime driver.
import { describe, expect, it } from 'vitest';
import { type Address, type ServerDriver, startServer } from '../../../adapters/shared/server.ts';
import { App } from '../../../src/index.ts';

function fakeDriver(options: { listen?: () => Address | Promise<Address>; drains?: boolean } = {}) {
  const calls: string[] = [];
  let signal: (() => void) | undefined;
  let drained!: () => void;
  const stopped = new Promise<void>((r) => (drained = r));
  const driver: ServerDriver = {
    runtime: 'fake',
    listen: options.listen ?? (() => ({ port: 1234, hostname: '127.0.0.1' })),
    stop() {
      calls.push('stop');
      if (options.drains !== false) drained();
      return stopped;
    },
    cut() {
      calls.push('cut');
      drained();
    },
    onSignal(handler) {
      calls.push('signals on');
      signal = handler;
      return () => {
        calls.push('signals off');
        signal = undefined;
      };
    },
    exit: (code) => void calls.push(`exit ${code}`),
    watchErrors() {
      calls.push('watch');
      return () => void calls.push('unwatch');
    },
  };
  return { driver, calls, raise: () => signal?.() };
}

const quiet = { onListen: () => {} };

describe('server lifecycle', () => {
  it('listens, reports its URL and emits server:listening', async () => {
    const app = new App();
    const events: unknown[] = [];
    app.on('server:listening', (e) => void events.push(e.metadata));
    const { driver } = fakeDriver();
    const handle = startServer(app, quiet, new Set(), driver);
    await handle.ready;
    expect(handle.url).toBe('http://127.0.0.1:1234/');
    expect(events).toEqual([{ runtime: 'fake', hostname: '127.0.0.1', port: 1234, url: 'http://127.0.0.1:1234/' }]);
    await handle.close();
  });

  it('an app served twice shuts down (its thread pool) with its last server, not its first', async () => {
    const app = new App();
    let shutdowns = 0;
    app.shutdown = async () => void shutdowns++;
    const a = startServer(app, { ...quiet, handleSignals: false }, new Set(), fakeDriver().driver);
    const b = startServer(app, { ...quiet, handleSignals: false }, new Set(), fakeDriver().driver);
    await a.close();
    expect(shutdowns).toBe(0);
    await a.close(); // a second close of the same server counts once
    expect(shutdowns).toBe(0);
    await b.close();
    expect(shutdowns).toBe(1);
  });

  it('an IPv6 address is bracketed in the URL', async () => {
    const { driver } = fakeDriver({ listen: () => ({ port: 1, hostname: '::1' }) });
    const handle = startServer(new App(), quiet, new Set(), driver);
    expect(handle.url).toBe('http://[::1]:1/');
    await handle.close();
  });

  it('close() emits server:shutdown, waits for background work, shuts the app down and cleans up', async () => {
    const app = new App();
    const order: string[] = [];
    app.on(
      'server:shutdown',
      () =>
        new Promise<void>((r) =>
          setTimeout(() => {
            order.push('listener done');
            r();
          }, 50),
        ),
    );
    const { driver, calls } = fakeDriver();
    const handle = startServer(app, quiet, new Set(), driver);
    await handle.close();
    order.push('closed');
    expect(order).toEqual(['listener done', 'closed']);
    expect(calls).toEqual(['signals on', 'watch', 'stop', 'unwatch', 'signals off']);
    await handle.finished;
    expect(handle.close()).toBe(handle.close()); // once
  });

  it('cuts connections when the grace period ends', async () => {
    const { driver, calls } = fakeDriver({ drains: false });
    const handle = startServer(new App(), { ...quiet, shutdownTimeoutMs: 100 }, new Set(), driver);
    const started = Date.now();
    await handle.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(calls).toContain('cut');
  });

  it('a signal closes and exits 0; a second signal cuts at once', async () => {
    const { driver, calls, raise } = fakeDriver({ drains: false });
    const handle = startServer(new App(), { ...quiet, shutdownTimeoutMs: 60_000 }, new Set(), driver);
    raise();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).not.toContain('cut');
    raise();
    await handle.finished;
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.slice(calls.indexOf('stop'))).toEqual(['stop', 'cut', 'unwatch', 'signals off', 'exit 0']);
  });

  it('a third signal exits at once, when shutting down hangs', async () => {
    const { driver, calls, raise } = fakeDriver({ drains: false });
    const app = new App();
    app.shutdown = () => new Promise<void>(() => {});
    startServer(app, { ...quiet, shutdownTimeoutMs: 60_000 }, new Set(), driver);
    raise();
    raise();
    await new Promise((r) => setTimeout(r, 150));
    expect(calls).not.toContain('exit 1');
    raise();
    expect(calls).toContain('exit 1');
  });

  it('handleSignals: false leaves signals alone', async () => {
    const { driver, calls } = fakeDriver();
    const handle = startServer(new App(), { ...quiet, handleSignals: false }, new Set(), driver);
    await handle.close();
    expect(calls).not.toContain('signals on');
  });

  it('an aborted signal option closes the server', async () => {
    const controller = new AbortController();
    const { driver } = fakeDriver();
    const handle = startServer(new App(), { ...quiet, signal: controller.signal }, new Set(), driver);
    controller.abort();
    await handle.finished;
  });

  it('a listen that throws makes startServer throw, with nothing left installed', () => {
    const { driver, calls } = fakeDriver({
      listen: () => {
        throw new Error('AddrInUse');
      },
    });
    expect(() => startServer(new App(), quiet, new Set(), driver)).toThrow('AddrInUse');
    expect(calls).toEqual(['signals on', 'watch', 'unwatch', 'signals off']);
  });

  it('a listen that rejects rejects ready and finished', async () => {
    const { driver, calls } = fakeDriver({ listen: () => Promise.reject(new Error('EADDRINUSE')) });
    const handle = startServer(new App(), quiet, new Set(), driver);
    await expect(handle.ready).rejects.toThrow('EADDRINUSE');
    await expect(handle.finished).rejects.toThrow('EADDRINUSE');
    expect(calls).toContain('signals off');
  });
});
