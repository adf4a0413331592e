// Requests refused before the app runs, the part every runtime shares: which Host values are
// unusable and how a refusal looks. Each runtime's check is in its folder
// (node/index.ts, deno/request-check.ts, bun/index.ts).

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

/** A refusal as a Response, for the runtimes that answer with one. */
export function refuse(detail: string): Response {
  const r = refusal(detail);
  return new Response(r.body, { status: r.status, headers: r.headers });
}
