// The filters a view may apply (`{{ value | name(arg) }}`): the built-in set and the app's own.
// A filter is a plain function the app registered; a view names it, and the view is compiled
// against this table, so an unknown name fails when the view is compiled and a known one costs
// no lookup when it renders.

/**
 * A filter: the value before the `|`, then the arguments written in the view. What it returns is
 * escaped by `{{ }}` like any value, unless it is `safe(html)`.
 *
 * @example
 * const currency: ViewFilter = (v, code = 'EUR') => new Intl.NumberFormat('en', { style: 'currency', currency: String(code) }).format(Number(v));
 */
export type ViewFilter = (value: unknown, ...args: any[]) => unknown;

/** A filter as the compiler calls it: the built-in `date` and `number` also get the render's locale. */
export interface FilterDef {
  fn: (value: unknown, locale: string | undefined, args: readonly unknown[]) => unknown;
}

const MAX_FORMATS = 64;
const FORMATS = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

/** One formatter per locale and options, kept (at most MAX_FORMATS): making one costs far more than using it. */
function format<T extends Intl.DateTimeFormat | Intl.NumberFormat>(kind: 'date' | 'number', locale: string | undefined, options: object, make: () => T): T {
  const key = `${kind}\u0000${locale ?? ''}\u0000${JSON.stringify(options)}`;
  let f = FORMATS.get(key) as T | undefined;
  if (f === undefined) {
    f = make();
    if (FORMATS.size >= MAX_FORMATS) FORMATS.clear();
    FORMATS.set(key, f);
  }
  return f;
}

const STYLES = new Set(['full', 'long', 'medium', 'short']);

/** `date('medium')`, `date('long', 'short')` (date and time styles), or an options object from the data. */
function dateOptions(args: readonly unknown[]): Intl.DateTimeFormatOptions {
  const [a, b] = args;
  if (a !== null && typeof a === 'object') return a as Intl.DateTimeFormatOptions;
  const out: Intl.DateTimeFormatOptions = {};
  if (typeof a === 'string' && STYLES.has(a)) out.dateStyle = a as Intl.DateTimeFormatOptions['dateStyle'];
  if (typeof b === 'string' && STYLES.has(b)) out.timeStyle = b as Intl.DateTimeFormatOptions['timeStyle'];
  if (a === undefined) out.dateStyle = 'medium';
  return out;
}

/** `number()`, `number(2)` (exactly two decimals), or an options object from the data. */
function numberOptions(args: readonly unknown[]): Intl.NumberFormatOptions {
  const [a] = args;
  if (a !== null && typeof a === 'object') return a as Intl.NumberFormatOptions;
  if (typeof a === 'number' && Number.isInteger(a) && a >= 0 && a <= 20) return { minimumFractionDigits: a, maximumFractionDigits: a };
  return {};
}

const text = (v: unknown): string => (v == null ? '' : typeof v === 'string' ? v : String(v));

// Characters that would end a <script> or open an HTML comment in it, and the two line
// terminators older JavaScript refused in a string: escaped as JSON allows.
const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const SCRIPT_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

const plain =
  (fn: (value: unknown, args: readonly unknown[]) => unknown): FilterDef['fn'] =>
  (value, _locale, args) =>
    fn(value, args);

/** The built-in filters, by name. */
export const BUILTIN_FILTERS: ReadonlyMap<string, FilterDef> = new Map<string, FilterDef>([
  ['upper', { fn: plain((v) => text(v).toUpperCase()) }],
  ['lower', { fn: plain((v) => text(v).toLowerCase()) }],
  ['trim', { fn: plain((v) => text(v).trim()) }],
  ['default', { fn: plain((v, [fallback]) => (v == null || v === '' ? fallback : v)) }],
  ['join', { fn: plain((v, [sep]) => (Array.isArray(v) ? v.map(text).join(sep === undefined ? ', ' : text(sep)) : v)) }],
  [
    'length',
    {
      fn: plain((v) => {
        if (typeof v === 'string' || Array.isArray(v)) return v.length;
        if (v instanceof Map || v instanceof Set) return v.size;
        return 0;
      }),
    },
  ],
  ['json', { fn: plain((v) => (JSON.stringify(v) ?? 'null').replace(SCRIPT_UNSAFE, (c) => SCRIPT_ESCAPES[c]!)) }],
  [
    'date',
    {
      fn: (v, locale, args) => {
        if (v == null || v === '') return '';
        const d = v instanceof Date ? v : new Date(v as string | number);
        if (Number.isNaN(d.getTime())) return '';
        const options = dateOptions(args);
        return format('date', locale, options, () => new Intl.DateTimeFormat(locale, options)).format(d);
      },
    },
  ],
  [
    'number',
    {
      fn: (v, locale, args) => {
        if (v == null || v === '') return '';
        const n = typeof v === 'number' ? v : Number(v);
        if (Number.isNaN(n)) return '';
        const options = numberOptions(args);
        return format('number', locale, options, () => new Intl.NumberFormat(locale, options)).format(n);
      },
    },
  ],
]);

const NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * The table a view is compiled against: the built-ins, then the app's own (which may replace a
 * built-in). Names are checked here, when the views are made.
 */
export function filterTable(own: Readonly<Record<string, ViewFilter>> | undefined): ReadonlyMap<string, FilterDef> {
  if (own === undefined) return BUILTIN_FILTERS;
  const table = new Map(BUILTIN_FILTERS);
  for (const [name, fn] of Object.entries(own)) {
    if (!NAME.test(name)) throw new TypeError(`createViews(): the filter name ${JSON.stringify(name)} is not a name a view can write`);
    if (typeof fn !== 'function') throw new TypeError(`createViews(): the filter ${name} is not a function`);
    table.set(name, { fn: (value, _locale, args) => fn(value, ...args) });
  }
  return table;
}

/**
 * For `build:views`, which does not know the app's filters: the table `own` makes, answering any
 * other name too, so that the views compile; createViews checks the names when it loads them.
 */
export function lenientFilterTable(own: Readonly<Record<string, ViewFilter>> | undefined): ReadonlyMap<string, FilterDef> {
  const known = filterTable(own);
  const later: FilterDef = { fn: () => undefined };
  return { get: (name: string) => known.get(name) ?? later, keys: () => known.keys() } as ReadonlyMap<string, FilterDef>;
}
