// The one place that says what a header name and value may hold. The context checks what
// `c.header()` and the helpers are given; adapters check responses built elsewhere with the
// same rule, before a runtime could write a bad byte (node:http throws, Deno 2.9 panics).

/** An RFC 9110 token: what a header name (and a cookie name) may be. */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What every runtime sends as is: tab, visible ASCII, space and obs-text; no other control character. */
const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;

// Names and values already checked: the same few (content types, cookie names, fixed security
// headers) come back on every request, and a set lookup costs less than a regex test.
// Bounded: cleared when full.
const GOOD_NAMES = new Set<string>();
const GOOD_VALUES = new Set<string>();
const MAX_REMEMBERED = 512;
const LONGEST_REMEMBERED = 256;

/**
 * Throws a TypeError for a header no runtime should be asked to send: a name that is
 * not a token, or a value holding a control character other than tab (CR and LF included).
 *
 * @example
 * checkHeader('x-trace', 'a\r\nb'); // throws
 */
export function checkHeader(name: string, value: string): void {
  if (!GOOD_NAMES.has(name)) {
    if (!TOKEN.test(name)) throw new TypeError(`Invalid header name: ${JSON.stringify(name)}`);
    remember(GOOD_NAMES, name);
  }
  if (!GOOD_VALUES.has(value)) {
    if (!SENDABLE.test(value)) throw new TypeError(`Invalid value for header ${name}: control characters are not allowed`);
    if (value.length <= LONGEST_REMEMBERED) remember(GOOD_VALUES, value);
  }
}

/** `checkHeader` over every header of a Response. */
export function checkHeaders(res: Response): void {
  res.headers.forEach((value, name) => checkHeader(name, value));
}

/** Whether a value is sendable as is (see `checkHeader`), without throwing. */
export function isSendable(value: string): boolean {
  return GOOD_VALUES.has(value) || SENDABLE.test(value);
}

function remember(set: Set<string>, key: string): void {
  if (set.size >= MAX_REMEMBERED) set.clear();
  set.add(key);
}
