import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';
import { timeout, timeoutSignal } from '../../src/middleware/timeout/index.ts';

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
