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

/**
 * A filter as the compiler calls it. The app's own are called as they are (`own`); a built-in
 * takes at most two arguments, and `date` and `number` the render's locale too, so a call
 * allocates nothing.
 */
export type FilterDef = { own: ViewFilter } | { builtin: (value: unknown, locale: string | undefined, a: unknown, b: unknown) => unknown };

type Formatter = Intl.DateTimeFormat | Intl.NumberFormat;
type Kind = 'date' | 'number';

const MAX_FORMATS = 64;
// Formatters by locale and options: making one costs far more than using it. Options written in
// the view (a style) are keyed by their text; an options object from the data by the object
// itself, so a render that passes the same object for every item looks it up without
// serialising it. At most MAX_FORMATS each. A view formats its items alike, so the one each
// kind used last is checked first.
const BY_TEXT = new Map<string, Formatter>();
const BY_OBJECT = new WeakMap<object, Map<string, Formatter>>();
const LAST: Record<Kind, { key: unknown; locale: string | undefined; f: Formatter | null }> = {
  date: { key: null, locale: undefined, f: null },
  number: { key: null, locale: undefined, f: null },
};

function formatter(kind: Kind, key: string | object, locale: string | undefined, a: unknown, b: unknown): Formatter {
  const last = LAST[kind];
  if (last.key === key && last.locale === locale && last.f !== null) return last.f;
  const at = `${kind}\u0000${locale ?? ''}`;
  let f: Formatter | undefined;
  if (typeof key === 'object') {
    let byLocale = BY_OBJECT.get(key);
    if (byLocale === undefined) BY_OBJECT.set(key, (byLocale = new Map()));
    f = byLocale.get(at);
    if (f === undefined) {
      if (byLocale.size >= MAX_FORMATS) byLocale.clear();
      byLocale.set(at, (f = make(kind, locale, a, b)));
    }
  } else {
    const text = `${key}\u0000${at}`;
    f = BY_TEXT.get(text);
    if (f === undefined) {
      if (BY_TEXT.size >= MAX_FORMATS) BY_TEXT.clear();
      BY_TEXT.set(text, (f = make(kind, locale, a, b)));
    }
  }
  last.key = key;
  last.locale = locale;
  last.f = f;
  return f;
}

function make(kind: Kind, locale: string | undefined, a: unknown, b: unknown): Formatter {
  return kind === 'date' ? new Intl.DateTimeFormat(locale, dateOptions(a, b)) : new Intl.NumberFormat(locale, numberOptions(a));
}

const STYLES = new Set(['full', 'long', 'medium', 'short']);

/** `date('medium')`, `date('long', 'short')` (date and time styles), or an options object from the data. */
function dateOptions(a: unknown, b: unknown): Intl.DateTimeFormatOptions {
  if (a !== null && typeof a === 'object') return a as Intl.DateTimeFormatOptions;
  const out: Intl.DateTimeFormatOptions = {};
  if (typeof a === 'string' && STYLES.has(a)) out.dateStyle = a as Intl.DateTimeFormatOptions['dateStyle'];
  if (typeof b === 'string' && STYLES.has(b)) out.timeStyle = b as Intl.DateTimeFormatOptions['timeStyle'];
  if (a === undefined) out.dateStyle = 'medium';
  return out;
}

/** `number()`, `number(2)` (exactly two decimals), or an options object from the data. */
function numberOptions(a: unknown): Intl.NumberFormatOptions {
  if (a !== null && typeof a === 'object') return a as Intl.NumberFormatOptions;
  if (typeof a === 'number' && Number.isInteger(a) && a >= 0 && a <= 20) return { minimumFractionDigits: a, maximumFractionDigits: a };
  return {};
}

const text = (v: unknown): string => (v == null ? '' : typeof v === 'string' ? v : String(v));

// Characters that would end a <script> or open an HTML comment in it, and the two line
// terminators older JavaScript refused in a string: escaped as JSON allows.
const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const SCRIPT_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

function date(v: unknown, locale: string | undefined, a: unknown, b: unknown): string {
  if (v == null || v === '') return '';
  // A timestamp goes to Intl as it is; anything else becomes a Date first.
  const t = typeof v === 'number' ? v : v instanceof Date ? v.getTime() : new Date(v as string).getTime();
  if (!Number.isFinite(t)) return '';
  const key = a !== null && typeof a === 'object' ? a : `${String(a)}\u0000${String(b)}`;
  return formatter('date', key, locale, a, b).format(t);
}

function number(v: unknown, locale: string | undefined, a: unknown): string {
  if (v == null || v === '') return '';
  const n = typeof v === 'number' ? v : Number(v);
  if (Number.isNaN(n)) return '';
  const key = a !== null && typeof a === 'object' ? a : String(a);
  return formatter('number', key, locale, a, undefined).format(n);
}

function length(v: unknown): number {
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  if (v instanceof Map || v instanceof Set) return v.size;
  return 0;
}

const builtin = (fn: (value: unknown, locale: string | undefined, a: unknown, b: unknown) => unknown): FilterDef => ({ builtin: fn });

/** The built-in filters, by name. */
export const BUILTIN_FILTERS: ReadonlyMap<string, FilterDef> = new Map<string, FilterDef>([
  ['upper', builtin((v) => text(v).toUpperCase())],
  ['lower', builtin((v) => text(v).toLowerCase())],
  ['trim', builtin((v) => text(v).trim())],
  ['default', builtin((v, _l, fallback) => (v == null || v === '' ? fallback : v))],
  ['join', builtin((v, _l, sep) => (Array.isArray(v) ? v.map(text).join(sep === undefined ? ', ' : text(sep)) : v))],
  ['length', builtin(length)],
  ['json', builtin((v) => (JSON.stringify(v) ?? 'null').replace(SCRIPT_UNSAFE, (c) => SCRIPT_ESCAPES[c]!))],
  ['date', builtin(date)],
  ['number', builtin(number)],
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
    table.set(name, { own: fn });
  }
  return table;
}

/**
 * For `build:views`, which does not know the app's filters: the built-ins, answering any other
 * name too, so that the views compile; createViews checks the names when it loads them.
 */
export function lenientFilterTable(): ReadonlyMap<string, FilterDef> {
  const known = BUILTIN_FILTERS;
  const later: FilterDef = { own: () => undefined };
  return { get: (name: string) => known.get(name) ?? later, keys: () => known.keys() } as ReadonlyMap<string, FilterDef>;
}
