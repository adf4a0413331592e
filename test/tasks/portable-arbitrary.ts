// Schedules in Rove's portable cron subset, generated for property tests.
import fc from 'fast-check';

const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

// One field of the subset: *, a step of *, a, a-b, a-b with a step, or a list of them; `names` in place of numbers.
function field(min: number, max: number, names?: string[], namesOnly = false): fc.Arbitrary<string> {
  const one = (n: number) => (namesOnly || (names && n % 2 === 0) ? names![n - min]! : String(n));
  const pair = fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
  const item = fc.oneof(
    fc.constant('*'),
    fc.integer({ min: 1, max: max - min }).map((s) => `*/${s}`),
    fc.integer({ min, max }).map(one),
    pair.map(([a, b]) => `${one(a)}-${one(b)}`),
    fc.tuple(pair, fc.integer({ min: 1, max: max - min })).map(([[a, b], s]) => `${one(a)}-${one(b)}/${s}`),
  );
  return fc.array(item, { minLength: 1, maxLength: 3 }).map((items) => items.join(','));
}

export const portable: fc.Arbitrary<string> = fc
  .tuple(field(0, 59), field(0, 23), field(1, 31), field(1, 12, MONTHS), field(0, 6, DAYS, true), fc.boolean())
  .map(([m, h, dom, mon, dow, dayOfMonth]) => [m, h, dayOfMonth ? dom : '*', mon, dayOfMonth ? '*' : dow].join(' '));
