/** Response headers kept as a plain object until a real `Headers` is needed. Names are lower-case. */
export type HeaderRecord = Record<string, string | string[]>;

export function toHeadersInit(headers: HeaderRecord): HeadersInit {
  let multi = false;
  for (const k in headers) if (typeof headers[k] !== 'string') multi = true;
  if (!multi) return headers as Record<string, string>;
  const pairs: [string, string][] = [];
  for (const k in headers) {
    const v = headers[k];
    if (typeof v === 'string') pairs.push([k, v]);
    else for (const one of v) pairs.push([k, one]);
  }
  return pairs;
}

/**
 * A Response with a header record's headers, set on it one by one rather than passed in the init:
 * the same headers (a `set-cookie` array becomes one header per value), and on a string body the
 * runtime's text/plain default until the record names a content type, as with an init.
 * Why: an init with several headers is the slow way on Deno and no faster elsewhere (docs/design-notes.md,
 * "Headers set after construction"). An empty record leaves the headers untouched, so a runtime's
 * fast path for a bare body stays.
 *
 * @example
 * buildResponse('{"ok":true}', 201, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
 */
export function buildResponse(body: BodyInit | null, status: number, headers: HeaderRecord): Response {
  const res = status === 200 ? new Response(body) : new Response(body, { status });
  let out: Headers | undefined;
  for (const k in headers) {
    const v = headers[k];
    out ??= res.headers;
    if (typeof v === 'string') out.set(k, v);
    else for (let i = 0; i < v.length; i++) out.append(k, v[i]);
  }
  return res;
}

/**
 * Copy a HeadersInit (a record, pairs or a Headers) onto a response's own headers, appending:
 * what `new Headers(init)` would hold. Iterating a Headers gives each set-cookie on its own and
 * joins the other repeated names, as copying does; a bad pair throws a TypeError there.
 */
export function appendHeaders(target: Headers, init: HeadersInit): void {
  for (const [k, v] of new Headers(init)) target.append(k, v);
}

/** Add header values to a real Response (its own values win), copying it first if its headers are immutable. */
export function withHeaders(res: Response, extra: HeaderRecord): Response {
  let out = res;
  try {
    apply(out.headers, extra);
  } catch {
    out = new Response(res.body, res);
    apply(out.headers, extra);
  }
  return out;
}

function apply(target: Headers, extra: HeaderRecord): void {
  for (const k in extra) {
    const v = extra[k];
    // Cookies add up; any other header the response set itself wins.
    if (typeof v === 'string' && k !== 'set-cookie') {
      if (!target.has(k)) target.set(k, v);
    } else for (const one of typeof v === 'string' ? [v] : v) target.append(k, one);
  }
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What every runtime sends as is: node:http refuses other control characters, Deno 2.9 panics on them.
const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Throws a TypeError for a header no runtime should be asked to send: a name that is
 * not a token, or a value holding a control character other than tab (CR and LF included).
 */
export function checkHeader(name: string, value: string): void {
  if (!TOKEN.test(name)) throw new TypeError(`Invalid header name: ${JSON.stringify(name)}`);
  if (!SENDABLE.test(value)) throw new TypeError(`Invalid value for header ${name}: control characters are not allowed`);
}

/**
 * `checkHeader` over a whole Response: a binding's `check` for runtimes that fail on such headers.
 * A response a helper built from checked headers (`built`) is trusted, to keep the check off the fast path.
 */
export function checkHeaders(res: Response, built = false): void {
  if (!built) res.headers.forEach((value, name) => checkHeader(name, value));
}

/** Marks a Response whose headers were all built from checked values (markChecked). */
const CHECKED = Symbol('rove.checked');

/**
 * Mark a Response that middleware built only from values it checked (tokens, listed origins,
 * numbers): the app then skips the binding's `checkHeaders` on it, as on a helper's response,
 * unless middleware read `c.res` afterwards (and so may have changed its headers).
 *
 * @example
 * return markChecked(new Response(null, { status: 204, headers: { 'access-control-max-age': '600' } }));
 */
export function markChecked(res: Response): Response {
  (res as unknown as Record<symbol, boolean>)[CHECKED] = true;
  return res;
}

/** Whether markChecked marked this Response. */
export function isChecked(res: Response): boolean {
  return (res as unknown as Record<symbol, boolean | undefined>)[CHECKED] === true;
}
