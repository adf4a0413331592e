// RateLimitCounter's logic on a fake Durable Object state (the real one runs in test/workerd/rate-limit.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DurableObjectStateLike, RateLimitCounter } from '../../src/middleware/rate-limit/index.ts';

function fakeState() {
  const data = new Map<string, unknown>();
  const alarms: number[] = [];
  const state: DurableObjectStateLike = {
    storage: {
      get: async <T>(key: string) => data.get(key) as T | undefined,
      put: async (key, value) => {
        data.set(key, structuredClone(value));
      },
      deleteAll: async () => data.clear(),
      setAlarm: async (time) => {
        alarms.push(time);
      },
    },
  };
  return { state, data, alarms };
}

const hit = async (counter: RateLimitCounter, windowMs: number) =>
  (await (await counter.fetch(new Request(`https://x/hit?window=${windowMs}`, { method: 'POST' }))).json()) as { count: number; resetMs: number };

afterEach(() => vi.useRealTimers());

describe('RateLimitCounter', () => {
  it('counts one window, sets an alarm at its end, and the alarm deletes everything', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { state, data, alarms } = fakeState();
    const counter = new RateLimitCounter(state);
    expect(await hit(counter, 1000)).toEqual({ count: 1, resetMs: 1000 });
    vi.advanceTimersByTime(400);
    expect(await hit(counter, 1000)).toEqual({ count: 2, resetMs: 600 });
    expect(alarms.length).toBe(1);
    // A fresh object (the old one was evicted) reads the count back from storage.
    expect((await hit(new RateLimitCounter(state), 1000)).count).toBe(3);
    vi.advanceTimersByTime(600);
    await counter.alarm();
    expect(data.size).toBe(0);
    expect(await hit(counter, 1000)).toEqual({ count: 1, resetMs: 1000 });
  });

  it('an early alarm is set again for the end of the window', async () => {
    const { state, data, alarms } = fakeState();
    const counter = new RateLimitCounter(state);
    await hit(counter, 60_000);
    await counter.alarm();
    expect(data.size).toBe(1);
    expect(alarms.length).toBe(2);
  });

  it('answers 400 to a bad window', async () => {
    const res = await new RateLimitCounter(fakeState().state).fetch(new Request('https://x/hit?window=abc'));
    expect(res.status).toBe(400);
  });
});
