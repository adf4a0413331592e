// Requests refused before the app runs: a Host header that could move where
// the path starts in `request.url`, and `OPTIONS *`.

import { denoHeader } from './deno-header.ts';

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
 * Deno (and `deno serve`): the 400 answer for a request the app must not see,
 * or undefined. Deno builds `request.url` from the Host as sent, so the Host
 * must be read: through Deno's one-header lookup where there is one (`denoHeader`),
 * since the first `headers` access builds them all (cost in docs/design-notes.md).
 *
 * @example
 * Deno.serve((request, info) => checkDenoRequest(request) ?? app.handle(request, env, ctx, info));
 */
export function checkDenoRequest(request: Request): Response | undefined {
  const host = denoHeader(request, 'host');
  if (host !== null && invalidHost(host)) return refuse(BAD_HOST);
  // Deno turns the target `*` into the path `/*`; only OPTIONS takes that form.
  if (request.method === 'OPTIONS' && isAsterisk(request.url)) return refuse(ASTERISK);
  return undefined;
}

/**
 * Bun: the 400 answer for a request the app must not see, or undefined.
 * Bun makes `request.url` relative (`/path`) exactly when the Host is missing
 * or is not a valid URL host (every Host `invalidHost` refuses, and `" < ^ { | \``),
 * so the URL's first character tells, without building the request's Headers
 * (a cost docs/design-notes.md gives). Bun answers `OPTIONS *` 400 itself.
 */
export function checkBunRequest(request: Request): Response | undefined {
  if (request.url.charCodeAt(0) !== 0x2f) return undefined;
  return refuse(request.headers.get('host') === null ? NO_HOST : BAD_HOST);
}

function isAsterisk(url: string): boolean {
  if (!url.endsWith('/*')) return false;
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart === url.length - 2;
}
