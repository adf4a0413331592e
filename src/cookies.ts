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
    let value = trimSpace(part.slice(eq + 1));
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        // keep the raw text
      }
    }
    out[name] = value;
  }
  return out;
}

const EDGE_SPACE = /^[ \t]+|[ \t]+$/g;

function trimSpace(text: string): string {
  return text.replace(EDGE_SPACE, '');
}

export interface CookieOptions {
  domain?: string;
  path?: string;
  expires?: Date;
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  partitioned?: boolean;
}

// A ";" would start a new attribute, and CR/LF a new header line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const UNSAFE_ATTRIBUTE = /[;\u0000-\u001f\u007f]/;

function attribute(name: string, value: string): string {
  if (UNSAFE_ATTRIBUTE.test(value)) throw new TypeError(`Cookie ${name} must not hold ";" or control characters: ${JSON.stringify(value)}`);
  return value;
}

export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  if (!TOKEN.test(name)) throw new TypeError(`Invalid cookie name: ${name}`);
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
  return out;
}
