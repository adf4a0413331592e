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

/** What a 304 may carry (RFC 9110 §15.4.5), besides cookies: the rest describe a body it has not. */
const ON_304 = new Set(['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary', 'last-modified', 'set-cookie']);

/**
 * Add header values to a real Response (its own values win), copying it first if its headers are
 * immutable. Appended values (cookies, `append: true`) the response already holds are not added
 * twice: a response middleware derived from a helper's carries them already. A 304 gets only what
 * a 304 may carry.
 */
export function withHeaders(res: Response, extra: HeaderRecord): Response {
  let out = res;
  const only304 = res.status === 304;
  try {
    apply(out.headers, extra, only304);
  } catch {
    out = new Response(res.body, res);
    apply(out.headers, extra, only304);
  }
  return out;
}

function apply(target: Headers, extra: HeaderRecord, only304: boolean): void {
  for (const k in extra) {
    if (only304 && !ON_304.has(k)) continue;
    const v = extra[k];
    // Cookies add up; any other header the response set itself wins.
    if (typeof v === 'string' && k !== 'set-cookie') {
      if (!target.has(k)) target.set(k, v);
      continue;
    }
    const have = k === 'set-cookie' ? target.getSetCookie() : (target.get(k)?.split(', ') ?? []);
    for (const one of typeof v === 'string' ? [v] : v) if (!have.includes(one)) target.append(k, one);
  }
}
