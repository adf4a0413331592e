// A small HTTP client for the notes contract: a cookie jar, form posts with the
// CSRF token scraped from the page, and HS256 tokens signed with Web Crypto.

/** Cookies by name, as a browser would keep them for one site (path and expiry ignored). */
export class Jar {
  readonly cookies = new Map<string, string>();

  /** Takes every Set-Cookie of `res`; a cookie set to expire is removed. Returns the raw headers. */
  take(res: Response): string[] {
    const set = res.headers.getSetCookie();
    for (const line of set) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0\b/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return set;
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  clone(): Jar {
    const jar = new Jar();
    for (const [k, v] of this.cookies) jar.cookies.set(k, v);
    return jar;
  }
}

export interface Client {
  jar: Jar;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** GET `path` (a page with a form) and return its hidden _csrf value. */
  token(path?: string): Promise<string>;
}

export function client(base: string, jar = new Jar()): Client {
  const send = async (path: string, init: RequestInit & { headers: Record<string, string> }) => {
    const cookie = jar.header();
    const res = await fetch(base + path, { redirect: 'manual', ...init, headers: { ...(cookie ? { cookie } : {}), ...init.headers } });
    jar.take(res);
    return res;
  };
  return {
    jar,
    get: (path, headers = {}) => send(path, { headers }),
    post: (path, form, headers = {}) =>
      send(path, { method: 'POST', body: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } }),
    async token(path = '/login') {
      const res = await send(path, { headers: {} });
      const html = await res.text();
      const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
      if (!token) throw new Error(`no _csrf field on ${path}: ${html.slice(0, 300)}`);
      return token;
    },
  };
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');

/** A compact JWS, HS256, over `claims`. */
export async function hs256(secret: string, claims: Record<string, unknown>): Promise<string> {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(head)));
  return `${head}.${b64url(sig)}`;
}

/** Logs `name` in through the form and returns the client holding the session. */
export async function login(base: string, name: string): Promise<Client> {
  const c = client(base);
  const token = await c.token('/login');
  const res = await c.post('/login', { name, _csrf: token });
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`login answered ${res.status}`);
  return c;
}

/** The directives of a Content-Security-Policy header, by name. */
export function cspDirectives(header: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}
