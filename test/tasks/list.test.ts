// A task list in process: registration, firing, errors, events, background work and the lock.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, type RoveEvent } from '../../src/index.ts';
import { type TaskLock, tasks, taskTrigger } from '../../src/tasks/index.ts';

afterEach(() => vi.restoreAllMocks());

const later = <T>(ms: number, value?: T) => new Promise<T | undefined>((r) => setTimeout(() => r(value), ms));

describe('registering', () => {
  it('refuses bad names, a repeated name, a missing handler and an unportable schedule', () => {
    const jobs = tasks().cron('ok', '* * * * *', () => {});
    expect(() => jobs.cron('ok', '* * * * *', () => {})).toThrow('already registered');
    expect(() => jobs.cron('has space', '* * * * *', () => {})).toThrow('letters, digits');
    expect(() => jobs.cron('x'.repeat(65), '* * * * *', () => {})).toThrow('letters, digits');
    expect(() => jobs.cron('__proto__', '0 0 * * 1', () => {})).toThrow('named (SUN–SAT)');
    expect(() => jobs.cron('none', '* * * * *', undefined as never)).toThrow('handler');
    expect(jobs.tasks.map((t) => t.name)).toEqual(['ok']);
  });

  it('lists each schedule once, normalised, for wrangler.toml', () => {
    const jobs = tasks()
      .cron('a', '0 3 * * *', () => {})
      .cron('b', '0  3 * * *', () => {})
      .cron('c', '0 9 * * mon', () => {});
    expect(jobs.schedules).toEqual(['0 3 * * *', '0 9 * * MON']);
  });

  it('serves one app', () => {
    const jobs = tasks();
    new App({ tasks: jobs });
    expect(() => new App({ tasks: jobs })).toThrow('another app');
  });

  it('refuses a lock that is not one, and a lock time that is not a whole number of seconds or more', () => {
    expect(() => tasks({ lock: {} as TaskLock })).toThrow('redisLock');
    expect(() => tasks({ lockTtlMs: Number.NaN })).toThrow('lockTtlMs');
    expect(() => tasks({ lockTtlMs: 10 })).toThrow('at least 1000');
  });
});

describe('fire', () => {
  it("gives the handler the env, the tick and waitUntil, and waits for the handler's background work", async () => {
    const seen: unknown[] = [];
    const jobs = tasks<{ Bindings: { DB: string[] } }>().cron('cleanup', '0 3 * * *', (t) => {
      seen.push(t.name, t.cron, t.scheduledTime, t.env.DB);
      t.waitUntil(later(30).then(() => t.env.DB.push('audited')));
    });
    new App({ tasks: jobs });
    const db: string[] = [];
    const outcome = await jobs.fire('cleanup', { env: { DB: db }, scheduledTime: 1_000 });
    expect(outcome).toEqual({ name: 'cleanup', ok: true });
    expect(seen).toEqual(['cleanup', '0 3 * * *', 1_000, db]);
    expect(db).toEqual(['audited']);
  });

  it('waits for work handed to waitUntil by other background work', async () => {
    const done: string[] = [];
    const jobs = tasks().cron('chain', '* * * * *', (t) => {
      t.waitUntil(later(10).then(() => t.waitUntil(later(20).then(() => done.push('second')))));
    });
    await jobs.fire('chain');
    expect(done).toEqual(['second']);
  });

  it('refuses an unknown name, naming the tasks there are', async () => {
    const jobs = tasks().cron('a', '* * * * *', () => {});
    await expect(jobs.fire('b')).rejects.toThrow('there are a');
  });
});

describe('errors', () => {
  it('logs a thrown error once by default, with the task name, and reports ok: false', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const boom = new Error('db down');
    const jobs = tasks().cron('cleanup', '* * * * *', () => {
      throw boom;
    });
    expect(await jobs.fire('cleanup')).toEqual({ name: 'cleanup', ok: false, error: boom });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('rove: task cleanup failed:', boom);
  });

  it('hands it to onError instead, with the context; a failing onError is logged with the cause', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const got: unknown[] = [];
    const jobs = tasks()
      .cron('cleanup', '* * * * *', async () => Promise.reject(new Error('late')))
      .onError((error, t) => void got.push((error as Error).message, t.name));
    await jobs.fire('cleanup');
    expect(got).toEqual(['late', 'cleanup']);
    expect(log).not.toHaveBeenCalled();
    jobs.onError(() => {
      throw new Error('reporter down');
    });
    await jobs.fire('cleanup');
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0]![0])).toContain('and so did its onError');
  });

  it("logs a rejected waitUntil promise, and the task's outcome stays ok", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const jobs = tasks().cron('audit', '* * * * *', (t) => t.waitUntil(Promise.reject(new Error('audit store down'))));
    expect((await jobs.fire('audit')).ok).toBe(true);
    expect(log).toHaveBeenCalledWith('rove: background work of task audit failed:', expect.objectContaining({ message: 'audit store down' }));
  });
});

describe('events', () => {
  it('emits task:start and task:complete, or task:error, through app.on', async () => {
    const jobs = tasks()
      .cron('good', '* * * * *', () => later(5))
      .cron('bad', '* * * * *', () => {
        throw new Error('no');
      })
      .onError(() => {});
    const app = new App({ tasks: jobs });
    const events: RoveEvent[] = [];
    app.on((e) => void events.push(e));
    await jobs.tick('* * * * *', { scheduledTime: 120_500 });
    const kinds = events.map((e) => `${e.kind} ${(e.metadata as { name: string }).name}`);
    expect(kinds.sort()).toEqual(['task:complete good', 'task:error bad', 'task:start bad', 'task:start good']);
    const complete = events.find((e) => e.kind === 'task:complete')!;
    expect(complete.metadata).toMatchObject({ name: 'good', cron: '* * * * *', scheduledTime: 120_000 });
    expect((complete.metadata as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(0);
  });
});

describe('tick', () => {
  it('runs every task of the schedule, and logs a trigger no task has', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ran: string[] = [];
    const jobs = tasks()
      .cron('a', '0 3 * * *', () => void ran.push('a'))
      .cron('b', '0 3 * * *', () => void ran.push('b'))
      .cron('c', '0 4 * * *', () => void ran.push('c'));
    expect((await jobs.tick('0 3 * * *', {})).map((o) => o.name)).toEqual(['a', 'b']);
    expect(ran).toEqual(['a', 'b']);
    expect(await jobs.tick('0 5 * * *', {})).toEqual([]);
    // A trigger written another way (wrangler.toml's `0 3 * * *` with extra spaces) still finds its tasks.
    expect((await jobs.tick('0  3 * * *', {})).map((o) => o.name)).toEqual(['a', 'b']);
    expect(String(log.mock.calls[0]![0])).toContain('no task has that schedule');
  });

  it('runs a tick once per key of the lock, and skips it when the lock store fails', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const held = new Set<string>();
    let failing = false;
    const lock: TaskLock = {
      async acquire(key, ttl) {
        expect(ttl).toBe(600_000);
        if (failing) throw new Error('redis down');
        if (held.has(key)) return false;
        held.add(key);
        return true;
      },
    };
    let runs = 0;
    const make = () => tasks({ lock }).cron('once', '* * * * *', () => void runs++);
    const [one, two] = [make(), make()];
    const app = new App({ tasks: two });
    const skipped: unknown[] = [];
    app.on('task:skipped', (e) => void skipped.push(e.metadata.reason));
    await Promise.all([one.tick('* * * * *', { scheduledTime: 60_010 }), two.tick('* * * * *', { scheduledTime: 60_020 })]);
    expect(runs).toBe(1);
    expect([...held]).toEqual(['once:60000']);
    failing = true;
    await two.tick('* * * * *', { scheduledTime: 180_000 });
    expect(runs).toBe(1);
    expect(skipped.length).toBe(2);
    expect(skipped).toContain('lock-failed');
    expect(String(log.mock.calls[0]![0])).toContain('lock store failed');
  });

  it('counts a lock store that does not answer in 10 s as failed, and skips the tick', async () => {
    vi.useFakeTimers();
    try {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      let runs = 0;
      const jobs = tasks({ lock: { acquire: () => new Promise<boolean>(() => {}) } }).cron('hung', '* * * * *', () => void runs++);
      const tick = jobs.tick('* * * * *', { scheduledTime: 0 });
      await vi.advanceTimersByTimeAsync(10_000);
      expect(await tick).toEqual([]);
      expect(runs).toBe(0);
      expect(log.mock.calls[0]![1]).toMatchObject({ message: 'no answer in 10000 ms' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('taskTrigger', () => {
  it('runs a schedule or a task on demand, and refuses what it does not know', async () => {
    const ran: string[] = [];
    const jobs = tasks()
      .cron('a', '0 3 * * *', (t) => void ran.push(`a ${(t.env as { who: string }).who}`))
      .cron('b', '0 4 * * *', () => void ran.push('b'));
    const app = new App({ tasks: jobs });
    app.get('/__scheduled', taskTrigger(jobs));
    const res = await app.request('/__scheduled?cron=0+3+*+*+*', undefined, { who: 'env' });
    expect(await res.json()).toEqual({ ran: [{ name: 'a', ok: true }] });
    expect(ran).toEqual(['a env']);
    expect((await app.request('/__scheduled?name=b')).status).toBe(200);
    expect(ran).toEqual(['a env', 'b']);
    expect((await app.request('/__scheduled?name=__proto__')).status).toBe(404);
    expect((await app.request('/__scheduled?cron=1+2+3+4+5')).status).toBe(404);
    expect((await app.request('/__scheduled')).status).toBe(400);
    expect((await app.request('/__scheduled?cron=x&name=a')).status).toBe(400);
  });
});
