import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, HttpError } from '../../../src/index.ts';
import { timeout, timeoutSignal } from '../../../src/middleware/timeout/index.ts';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

describe('timeout', () => {
  it('answers 504 problem+json when the handler is late, and aborts the signal it sees', async () => {
    const app = new App();
    let reason: unknown;
    app.use(timeout(50));
    app.get('/slow', async (c) => {
      const signal = timeoutSignal(c);
      signal.addEventListener('abort', () => {
        reason = signal.reason;
      });
      await sleep(5000, signal);
      return c.text('late');
    });
    const started = Date.now();
    const res = await app.request('/slow');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(504);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { title: string }).title).toBe('Gateway Timeout');
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('TimeoutError');
  });

  it('lets a prompt handler answer, and leaves its signal unaborted', async () => {
    const app = new App();
    let signal: AbortSignal | undefined;
    app.use(timeout(1000));
    app.get('/fast', (c) => {
      signal = timeoutSignal(c);
      return c.text('fast');
    });
    const res = await app.request('/fast');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('fast');
    expect(signal?.aborted).toBe(false);
  });

  it('outer middleware see the 504 in c.res, and a handler that throws after the deadline changes nothing', async () => {
    const app = new App();
    const seen: number[] = [];
    app.use(async (c, next) => {
      await next();
      seen.push(c.res.status);
    });
    app.use(timeout(20));
    app.get('/boom', async () => {
      await sleep(100);
      throw new Error('too late to matter');
    });
    const res = await app.request('/boom');
    expect(res.status).toBe(504);
    await sleep(150);
    expect(seen).toEqual([504]);
  });

  it('nested timeouts: the earliest deadline wins, and the inner signal follows the outer one', async () => {
    const app = new App();
    let inner: AbortSignal | undefined;
    app.use(timeout(30));
    app.use('/api', timeout(10_000));
    app.get('/api/x', async (c) => {
      inner = timeoutSignal(c);
      await sleep(5000, inner);
      return c.text('late');
    });
    const res = await app.request('/api/x');
    expect(res.status).toBe(504);
    expect(inner?.aborted).toBe(true);
  });

  it('outside any timeout(), timeoutSignal gives a signal that never aborts', async () => {
    const app = new App();
    app.get('/', (c) => c.text(String(timeoutSignal(c).aborted)));
    expect(await (await app.request('/')).text()).toBe('false');
  });

  it('refuses a deadline that is not a positive number of milliseconds', () => {
    for (const ms of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) expect(() => timeout(ms)).toThrow(RangeError);
  });
});

describe('timeout and the error log', () => {
  let logged: string[];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  });
  afterEach(() => vi.restoreAllMocks());

  it('logs nothing for a 504 whose handler stops on the signal (fetch-style rejection with its reason)', async () => {
    const app = new App();
    app.use(timeout(20));
    app.get('/abort', async (c) => {
      await sleep(5000, timeoutSignal(c));
      return c.text('late');
    });
    app.get('/wrapped', async (c) => {
      try {
        await sleep(5000, timeoutSignal(c));
      } catch (reason) {
        throw new Error('query cancelled', { cause: reason });
      }
      return c.text('late');
    });
    expect((await app.request('/abort')).status).toBe(504);
    expect((await app.request('/wrapped')).status).toBe(504);
    await sleep(50);
    expect(logged).toEqual([]);
  });

  it('logs once a handler that ignores the signal and throws after the 504 went out', async () => {
    const app = new App();
    app.use(timeout(20));
    app.get('/late', async () => {
      await sleep(80);
      throw new Error('too late to matter');
    });
    expect((await app.request('/late')).status).toBe(504);
    expect(logged).toEqual([]);
    await sleep(150);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^rove: GET \/late failed: Error: too late to matter/);
  });

  it('still logs a 504 the app throws itself, and an error before the deadline, once each', async () => {
    const app = new App();
    app.use(timeout(1000));
    app.get('/gateway', () => {
      throw new HttpError(504, 'upstream did not answer');
    });
    app.get('/boom', () => {
      throw new Error('boom');
    });
    expect((await app.request('/gateway')).status).toBe(504);
    expect((await app.request('/boom')).status).toBe(500);
    expect(logged).toHaveLength(2);
  });
});
