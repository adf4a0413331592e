// Requests refused before the app runs: a Host header that could move where
// the path starts in `request.url`, and `OPTIONS *`. Runtime-neutral.

/**
 * Whether a Host header value is unusable: empty, or holding whitespace, a
 * control or non-ASCII byte, or one of `/ ? # @ \`. Deno builds
 * `request.url` as `http://` + Host + target, so such a Host would pick the route.
 */
export function invalidHost(host: string): boolean {
  const n = host.length;
  if (n === 0) return true;
  for (let i = 0; i < n; i++) {
    const c = host.charCodeAt(i);
    // A loop over char codes: cheaper than a regex on the request path.
    if (c <= 0x20 || c >= 0x7f || c === 0x2f || c === 0x3f || c === 0x23 || c === 0x40 || c === 0x5c) return true;
  }
  return false;
}

/** The body and headers of a 400 problem+json refusal. */
export function refusal(detail: string): { status: 400; headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
  return { status: 400, headers: { 'content-type': 'application/problem+json', 'content-length': String(body.length) }, body };
}

export const BAD_HOST = 'Invalid Host header';
export const NO_HOST = 'A Host header is required';
export const ASTERISK = 'OPTIONS * is not supported';
export const BAD_TARGET = 'Invalid request target';

function refuse(detail: string): Response {
  const r = refusal(detail);
  return new Response(r.body, { status: r.status, headers: r.headers });
}

/**
 * The 400 answer for a request the app must not see, on runtimes that hand
 * over a `Request` (Deno, `deno serve`, Bun); undefined for any other.
 * `hostRequired`: Bun makes `request.url` relative when there is no Host.
 *
 * @example
 * Deno.serve((request, info) => checkRequest(request, false) ?? app.handle(request, env, ctx, info));
 */
export function checkRequest(request: Request, hostRequired: boolean): Response | undefined {
  const host = request.headers.get('host');
  if (host === null) {
    if (hostRequired) return refuse(NO_HOST);
  } else if (invalidHost(host)) {
    return refuse(BAD_HOST);
  }
  // Deno turns the target `*` into the path `/*`; only OPTIONS takes that form.
  if (request.method === 'OPTIONS' && isAsterisk(request.url)) return refuse(ASTERISK);
  return undefined;
}

function isAsterisk(url: string): boolean {
  if (!url.endsWith('/*')) return false;
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart === url.length - 2;
}
