// The portable cron subset: what it accepts croner reads too, and what it refuses differs
// between the platforms (checked against Deno's own parser in deno-cron.test.ts).
import { Cron } from 'croner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { portableSchedule, ScheduleError } from '../../src/tasks/index.ts';
import { portable } from './portable-arbitrary.ts';

describe('portableSchedule', () => {
  it('accepts the subset, and croner finds a next run for exactly the schedules it accepts', () => {
    fc.assert(
      fc.property(portable, (schedule) => {
        const next = new Cron(schedule, { paused: true, timezone: 'UTC' }).nextRun();
        // Only a day that no month given has (31 APR) may be refused: it would never run.
        if (next === null) {
          expect(() => portableSchedule(schedule)).toThrow('never run');
          return;
        }
        expect(portableSchedule(schedule)).toBe(schedule);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a day that no month given has, and keeps 29 FEB (leap years)', () => {
    for (const never of ['0 0 31 APR *', '0 0 30-31 FEB *', '* 0 31-31/1 APR-APR/1 *', '0 0 31 FEB-APR/2 *', '0 0 31 4,6,9,11 *']) {
      expect(() => portableSchedule(never)).toThrow(ScheduleError);
      expect(() => portableSchedule(never)).toThrow('never run');
    }
    for (const runs of ['0 0 29 FEB *', '0 0 31 APR,MAY *', '0 0 31 */2 *', '0 0 30,31 FEB,MAR *']) {
      expect(portableSchedule(runs)).toBe(runs);
      expect(new Cron(runs, { paused: true, timezone: 'UTC' }).nextRun()).toBeInstanceOf(Date);
    }
  });

  it('gives names in capitals and single spaces back', () => {
    expect(portableSchedule('  0  9 *\t* mon-fri ')).toBe('0 9 * * MON-FRI');
    expect(portableSchedule('0 0 1 jan,jul *')).toBe('0 0 1 JAN,JUL *');
  });

  it.each([
    ['0 9 * * 1-5', 'named (SUN–SAT), not numbered'],
    ['0 9 * * 0', 'named'],
    ['0 0 0 * * *', '6 fields'],
    ['@daily', '1 fields'],
    ['0 0 L * *', 'not portable'],
    ['0 0 1W * *', 'not portable'],
    ['0 0 * * MON#2', 'not portable'],
    ['0 0 ? * *', 'not portable'],
    ['0 0 1 * MON', 'both the day of the month and the day of the week'],
    ['60 * * * *', 'outside 0–59'],
    ['0 24 * * *', 'outside 0–23'],
    ['0 0 0 * *', 'outside 1–31'],
    ['0 0 * 13 *', 'outside 1–12'],
    ['10-5 * * * *', 'runs backwards'],
    ['5/10 * * * *', 'needs * or a range'],
    ['*/0 * * * *', 'step 0'],
    ['*/60 * * * *', 'step 60 is outside 1–59'],
    ['0 */24 * * *', 'step 24'],
    ['0 0 * * MON-FRI/7', 'step 7'],
    ['0 0 * * SAT-SUN', 'runs backwards'],
    ['0 0 * FOO *', 'JAN'],
    ['0 0 * * *\n', undefined],
  ])('refuses %j, saying why', (schedule, reason) => {
    if (reason === undefined) {
      expect(portableSchedule(schedule)).toBe('0 0 * * *'); // surrounding whitespace is trimmed
      return;
    }
    expect(() => portableSchedule(schedule)).toThrow(ScheduleError);
    expect(() => portableSchedule(schedule)).toThrow(reason);
  });

  it('refuses anything that is not a string, and a very long one, without echoing it whole', () => {
    expect(() => portableSchedule(5 as unknown as string)).toThrow(TypeError);
    const long = `${'1,'.repeat(500)}1 * * * *`;
    expect(() => portableSchedule(long)).toThrow('longer than 200');
    expect(() => portableSchedule(long)).not.toThrow(long);
  });

  it('refuses random text cleanly: a ScheduleError or a result croner reads', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        try {
          const out = portableSchedule(text);
          expect(new Cron(out, { paused: true, timezone: 'UTC' }).nextRun()).toBeInstanceOf(Date);
        } catch (error) {
          expect(error).toBeInstanceOf(ScheduleError);
        }
      }),
    );
  });

  it('means UTC: croner runs 0 3 * * * at 03:00Z', () => {
    const next = new Cron(portableSchedule('0 3 * * *'), { paused: true, timezone: 'UTC' }).nextRun(new Date('2026-12-06T10:00:00Z'));
    expect(next?.toISOString()).toBe('2026-12-07T03:00:00.000Z');
    const monday = new Cron(portableSchedule('0 9 * * MON'), { paused: true, timezone: 'UTC' }).nextRun(new Date('2026-12-06T10:00:00Z'));
    expect(monday?.toISOString()).toBe('2026-12-07T09:00:00.000Z'); // 2026-12-06 is a Sunday
  });
});
