import { TOKEN } from './headers.ts';

/** Parse a Cookie header. Bad percent-encoding keeps the raw value; the first of duplicate names wins. */
export function parseCookies(header: string | null, limit = 100): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (!header) return out;
  let count = 0;
  for (const part of header.split(';')) {
    if (++count > limit) break;
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    // Only SP and HTAB surround a name or value (RFC 6265): a name padded with U+00A0 is another name.
    const name = trimSpace(part.slice(0, eq));
    if (!name || name in out) continue;
    out[name] = cookieValue(part, eq);
  }
  return out;
}

/**
 * The value of one cookie of a Cookie header, exactly as `parseCookies(header, limit)[name]` gives
 * it, without building the record of every cookie: for a reader that wants one name once.
 */
export function findCookie(header: string | null, name: string, limit = 100): string | undefined {
  if (!header || !name) return undefined;
  let count = 0;
  for (const part of header.split(';')) {
    if (++count > limit) break;
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (trimSpace(part.slice(0, eq)) === name) return cookieValue(part, eq);
  }
  return undefined;
}

/** The value after `=` at `eq`: trimmed, unquoted, percent-decoded (bad encoding keeps the raw text). */
function cookieValue(part: string, eq: number): string {
  let value = trimSpace(part.slice(eq + 1));
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (value.includes('%')) {
    try {
      value = decodeURIComponent(value);
    } catch {
      // keep the raw text
    }
  }
  return value;
}

/** SP and HTAB off both ends; the text itself when it has none (the common case: no copy, no regex). */
function trimSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

export interface CookieOptions {
  domain?: string;
  path?: string;
  expires?: Date;
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** CHIPS: the cookie is kept per top-level site. Implies `Secure`. */
  partitioned?: boolean;
  /** `Priority=` (Chrome): which cookies a full jar evicts last. */
  priority?: 'Low' | 'Medium' | 'High';
  /**
   * Put `__Secure-` or `__Host-` before the name, with what the prefix requires as defaults:
   * `Secure` for both; for `host`, `Path=/` and no `Domain`. Options that break the rules throw.
   */
  prefix?: 'secure' | 'host';
}

/** A name's prefix, as browsers match it (case-insensitively, rfc6265bis §4.1.3). */
function prefixOf(name: string): 'secure' | 'host' | undefined {
  const lower = name.slice(0, 9).toLowerCase();
  if (lower.startsWith('__host-')) return 'host';
  if (lower === '__secure-') return 'secure';
  return undefined;
}

/** The name with the option's prefix, and the options it implies; a broken prefix rule throws. */
export function prefixed(name: string, options: CookieOptions): { name: string; options: CookieOptions } {
  if (options.prefix !== undefined && options.prefix !== 'secure' && options.prefix !== 'host')
    throw new TypeError(`Cookie prefix must be "secure" or "host", not ${JSON.stringify(options.prefix)}`);
  const full = options.prefix === 'host' ? `__Host-${name}` : options.prefix === 'secure' ? `__Secure-${name}` : name;
  const rule = prefixOf(full);
  if (rule === undefined) return { name: full, options };
  const implied = options.prefix === undefined ? options : { secure: true, ...options };
  const secure = implied.secure || implied.sameSite === 'None' || implied.partitioned;
  if (!secure) throw new TypeError(`Cookie ${full}: a ${rule === 'host' ? '__Host-' : '__Secure-'} cookie must be Secure`);
  if (rule === 'host') {
    if (implied.domain) throw new TypeError(`Cookie ${full}: a __Host- cookie must not have a Domain`);
    if ((implied.path ?? '/') !== '/') throw new TypeError(`Cookie ${full}: a __Host- cookie must have Path=/`);
  }
  return { name: full, options: implied };
}

// A ";" would start a new attribute, and CR/LF a new header line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const UNSAFE_ATTRIBUTE = /[;\u0000-\u001f\u007f]/;

function attribute(name: string, value: string): string {
  if (UNSAFE_ATTRIBUTE.test(value)) throw new TypeError(`Cookie ${name} must not hold ";" or control characters: ${JSON.stringify(value)}`);
  return value;
}

/**
 * One `Set-Cookie` value. A bad name, an attribute holding `;` or control characters, or a
 * `__Secure-`/`__Host-` name whose options break the prefix's rules throws a TypeError.
 *
 * @example
 * serializeCookie('theme', 'dark', { maxAge: 60 }); // 'theme=dark; Max-Age=60; Path=/'
 */
export function serializeCookie(cookieName: string, value: string, cookieOptions: CookieOptions = {}): string {
  if (!TOKEN.test(cookieName)) throw new TypeError(`Invalid cookie name: ${cookieName}`);
  const { name, options } = prefixed(cookieName, cookieOptions);
  let out = `${name}=${encodeURIComponent(value)}`;
  if (options.maxAge !== undefined) out += `; Max-Age=${Math.floor(options.maxAge)}`;
  if (options.expires) out += `; Expires=${options.expires.toUTCString()}`;
  if (options.domain) out += `; Domain=${attribute('domain', options.domain)}`;
  out += `; Path=${attribute('path', options.path ?? '/')}`;
  if (options.httpOnly) out += '; HttpOnly';
  if (options.secure || options.sameSite === 'None' || options.partitioned) out += '; Secure';
  if (options.sameSite !== undefined) {
    // Typed, but untyped JS can pass anything: "Strict; Domain=evil" must not become attributes.
    if (options.sameSite !== 'Strict' && options.sameSite !== 'Lax' && options.sameSite !== 'None') {
      throw new TypeError(`Cookie sameSite must be "Strict", "Lax" or "None", not ${JSON.stringify(options.sameSite)}`);
    }
    out += `; SameSite=${options.sameSite}`;
  }
  if (options.partitioned) out += '; Partitioned';
  if (options.priority !== undefined) {
    if (options.priority !== 'Low' && options.priority !== 'Medium' && options.priority !== 'High') {
      throw new TypeError(`Cookie priority must be "Low", "Medium" or "High", not ${JSON.stringify(options.priority)}`);
    }
    out += `; Priority=${options.priority}`;
  }
  return out;
}
