/**
 * The ways to build a Response with N headers, for bench/response-build-micro.ts (and its workerd
 * worker): a header record in the init, the same as pairs, a Headers object, or set after.
 * Pure Web Standards, so every runtime runs the same code.
 */

const NAMES = ['content-type', 'x-request-id', 'x-powered-by', 'cache-control', 'x-content-type-options', 'referrer-policy', 'x-frame-options', 'vary'];
const VALUES = ['application/json', 'a1b2c3', 'rove', 'no-store', 'nosniff', 'no-referrer', 'SAMEORIGIN', 'accept-encoding'];

export type Build = (n: number) => Response;

/** A record of the first n headers; `n = 0` gives the 2-cookie set-cookie case plus a content type. */
function record(n: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) out[NAMES[i]] = VALUES[i];
  return out;
}
const records = Array.from({ length: 9 }, (_, n) => record(n));
const COOKIES = ['a=1; Path=/; HttpOnly', 'b=2; Path=/; HttpOnly'];

export const CASES: Record<string, Build> = {
  record: (n) => new Response('x', { status: 200, headers: { ...records[n] } }),
  pairs: (n) => {
    const pairs: [string, string][] = [];
    for (let i = 0; i < n; i++) pairs.push([NAMES[i], VALUES[i]]);
    return new Response('x', { status: 200, headers: pairs });
  },
  'headers-object': (n) => {
    const h = new Headers();
    for (let i = 0; i < n; i++) h.set(NAMES[i], VALUES[i]);
    return new Response('x', { status: 200, headers: h });
  },
  'set-after': (n) => {
    const r = new Response('x', { status: 200 });
    const h = r.headers;
    for (let i = 0; i < n; i++) h.set(NAMES[i], VALUES[i]);
    return r;
  },
  'first-then-set': (n) => {
    // The first header (the content type) in a one-key init, the rest set after.
    const r = new Response('x', { status: 200, headers: { [NAMES[0]]: VALUES[0] } });
    const h = r.headers;
    for (let i = 1; i < n; i++) h.set(NAMES[i], VALUES[i]);
    return r;
  },
  // No body, as a preflight's 204: the n headers in the init, or set after construction.
  'empty-record': (n) => new Response(null, { status: 204, headers: { ...records[n] } }),
  'empty-after': (n) => {
    const r = new Response(null, { status: 204 });
    const h = r.headers;
    for (let i = 0; i < n; i++) h.set(NAMES[i], VALUES[i]);
    return r;
  },
  'append-after': (n) => {
    const r = new Response('x', { status: 200 });
    const h = r.headers;
    for (let i = 0; i < n; i++) h.append(NAMES[i], VALUES[i]);
    return r;
  },
};

/** Two set-cookie values and a content type: pairs in the init against appends after. */
export const COOKIE_CASES: Record<string, () => Response> = {
  'cookies-pairs': () =>
    new Response('x', {
      headers: [
        ['content-type', 'text/plain'],
        ['set-cookie', COOKIES[0]],
        ['set-cookie', COOKIES[1]],
      ],
    }),
  'cookies-after': () => {
    const r = new Response('x');
    const h = r.headers;
    h.set('content-type', 'text/plain');
    h.append('set-cookie', COOKIES[0]);
    h.append('set-cookie', COOKIES[1]);
    return r;
  },
};

/** Runs `build` `iterations` times; returns a value that depends on every response, so nothing is skipped. */
export function loop(build: () => Response, iterations: number): number {
  let sink = 0;
  for (let i = 0; i < iterations; i++) sink += build().status;
  return sink;
}

/** Every case as [name, header count, build], in report order. */
export function allCases(max = 8): [string, number, () => Response][] {
  const out: [string, number, () => Response][] = [];
  for (const name in CASES) for (let n = 1; n <= max; n++) out.push([name, n, () => CASES[name](n)]);
  for (const name in COOKIE_CASES) out.push([name, 3, COOKIE_CASES[name]]);
  return out;
}
