// The cron syntax every platform reads the same way. Workers and Deno parse schedules with
// Cloudflare's saffron, Node and Bun with croner; they differ in day-of-week numbers (saffron:
// 1 = Sunday, croner: 1 = Monday), in L, W, #, ?, seconds and macros, and in how a day of the month
// and a day of the week combine. What falls outside this subset is refused when the task is
// registered, so a schedule never means one thing on one runtime and another elsewhere.

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface Field {
  name: string;
  min: number;
  max: number;
  /** Names allowed in place of numbers (months, days). */
  names?: readonly string[];
  /** Numbers refused: the day of the week is named, never numbered. */
  namesOnly?: boolean;
}

const FIELDS: readonly Field[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of the month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day of the week', min: 0, max: 6, names: DAYS, namesOnly: true },
];

const ITEM = /^(\*|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:\/([0-9]+))?$/;

/** Why a schedule is refused: thrown by `cron()` when the task is registered. */
export class ScheduleError extends TypeError {
  constructor(schedule: string, reason: string) {
    super(
      `cron schedule ${JSON.stringify(schedule)}: ${reason}. Rove accepts five fields (minute hour day month weekday) of numbers, *, a-b, */n, a-b/n and lists, in UTC, with weekdays named SUN–SAT (see docs/scheduling.md)`,
    );
    this.name = 'ScheduleError';
  }
}

/**
 * Check that `schedule` is in the portable subset, and give it back with single spaces and names
 * in capitals (the form wrangler.toml lists and Workers hand back as `controller.cron`).
 *
 * @example
 * portableSchedule('0 3 * * *'); // '0 3 * * *'
 * portableSchedule('0 9 * * mon-fri'); // '0 9 * * MON-FRI'
 * portableSchedule('0 9 * * 1-5'); // throws: weekdays are named
 */
export function portableSchedule(schedule: string): string {
  if (typeof schedule !== 'string') throw new TypeError('cron(): the schedule is a string such as "0 3 * * *"');
  if (schedule.length > 200) throw new ScheduleError(schedule.slice(0, 40), 'longer than 200 characters');
  const parts = schedule.trim().split(/[ \t]+/);
  if (parts.length !== 5) throw new ScheduleError(schedule, `${parts.length} fields, where 5 are needed (no seconds, no years, no @macros)`);
  const out = parts.map((part) => part.toUpperCase());
  const values = out.map((text, i) => checkField(schedule, text, FIELDS[i]!));
  // Vixie cron runs when either day field matches, croner by default too, saffron when both do:
  // restricting both would run on different days.
  if (out[2] !== '*' && out[4] !== '*')
    throw new ScheduleError(schedule, 'both the day of the month and the day of the week are restricted, which platforms combine differently');
  if (out[2] !== '*' && !daysMeetMonths(values[2]!, values[3]!))
    throw new ScheduleError(schedule, 'no month given has the days given (as 31 APR or 30 FEB), so it would never run');
  return out.join(' ');
}

// The longest each month gets: February has 29 days in a leap year.
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysMeetMonths(days: Set<number>, months: Set<number>): boolean {
  const first = Math.min(...days);
  for (const m of months) if (first <= MONTH_DAYS[m - 1]!) return true;
  return false;
}

/** Refuses what the subset does not read; gives the values the field names (ranges, steps and lists expanded). */
function checkField(schedule: string, text: string, field: Field): Set<number> {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const m = ITEM.exec(item);
    if (m === null)
      throw new ScheduleError(
        schedule,
        `${field.name}: ${JSON.stringify(item)} is not a number, a name, *, a range or a step (L, W, # and ? are not portable)`,
      );
    const [, range, step] = m;
    // saffron refuses a step as long as the field (*/60 for minutes), croner takes it.
    if (step !== undefined && (Number(step) < 1 || Number(step) > field.max - field.min))
      throw new ScheduleError(schedule, `${field.name}: the step ${step} is outside 1–${field.max - field.min}`);
    const ends = range === '*' ? [field.min, field.max] : range!.split('-').map((v) => value(schedule, v, field));
    if (ends.length === 2 && ends[0]! > ends[1]!) throw new ScheduleError(schedule, `${field.name}: the range ${range} runs backwards`);
    if (ends.length === 1 && step !== undefined) throw new ScheduleError(schedule, `${field.name}: a step needs * or a range before it (${item})`);
    for (let v = ends[0]!; v <= ends[ends.length - 1]!; v += step === undefined ? 1 : Number(step)) values.add(v);
  }
  return values;
}

function value(schedule: string, text: string, field: Field): number {
  if (/^[0-9]+$/.test(text)) {
    if (field.namesOnly)
      throw new ScheduleError(
        schedule,
        `the day of the week is named (SUN–SAT), not numbered: Workers and Deno count 1 as Sunday, Node's and Bun's cron as Monday`,
      );
    const n = Number(text);
    if (n < field.min || n > field.max) throw new ScheduleError(schedule, `${field.name}: ${text} is outside ${field.min}–${field.max}`);
    return n;
  }
  const i = field.names?.indexOf(text) ?? -1;
  if (i < 0)
    throw new ScheduleError(
      schedule,
      `${field.name}: ${JSON.stringify(text)} is not ${field.names ? `a number or one of ${field.names.join(' ')}` : 'a number'} (L, W, # and ? are not portable)`,
    );
  return i + field.min;
}
