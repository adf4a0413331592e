// cors(): which other origins may read this app's responses. Everything the options decide is
// worked out at registration; a request pays for a header lookup and, when allowed, a few sets.
import type { Handler, Next } from '../../core/compose.ts';
import type { Context, Env } from '../../core/context.ts';
import { HttpError } from '../../core/errors.ts';
import type { CorsRule } from '../../core/event-map.ts';
import { asList, ConfigProblems, Derived, type FromContext } from '../../core/from-context.ts';
import { named } from '../../core/named.ts';
import { TOKEN } from '../../http/headers.ts';
import { isOriginSyntax, normalizeOrigin } from '../../http/origin.ts';

/** Origins as `scheme://host[:port]`: one, or a list. */
export type CorsOrigins = string | readonly string[];

export interface CorsOptions<E extends Env = any> {
  /**
   * Who may read responses: `'*'` (anyone, without credentials; the default), one origin, a list,
   * or a function of the request's Origin that answers true to allow it (or the origin itself),
   * at once or with a promise (a lookup in a database or KV); any other answer refuses.
   */
  origin?: string | readonly string[] | ((origin: string, c: Context<any, any>) => OriginAnswer | Promise<OriginAnswer>);
  /**
   * The allowed origins as a function of the context, for a list kept in `c.env` (Workers):
   * `(c) => c.env.ALLOWED_ORIGINS.split(',')`. Called for requests that send Origin; what it gives
   * is checked as `origin` would be, once per distinct list. Instead of `origin`.
   */
  origins?: FromContext<E, CorsOrigins>;
  /** Methods a preflight allows. Default GET, HEAD, PUT, POST, DELETE, PATCH. */
  methods?: readonly string[];
  /** Request headers a preflight allows. Default: the ones the browser asks for (each checked to be a header name). */
  headers?: readonly string[];
  /** Response headers the page's script may read beyond the safelisted ones. */
  exposeHeaders?: readonly string[];
  /** Let the browser send cookies and read the response (`Access-Control-Allow-Credentials`). Not with `origin: '*'`. */
  credentials?: boolean;
  /** Seconds a browser may cache a preflight answer. Default 600. */
  maxAge?: number;
}

/** What an origin function answers: `true` (or the origin itself) allows; anything else refuses. */
export type OriginAnswer = boolean | string | null | undefined;

/** Which rule refused a request. */
export type { CorsRule } from '../../core/event-map.ts';

const DEFAULT_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH'];
/** Methods a browser never preflights: always allowed. */
const SIMPLE_METHODS = new Set(['GET', 'HEAD', 'POST']);
/** Bounds on what a preflight may ask for; real browsers stay far below. */
const MAX_REQUEST_HEADERS = 64;
const MAX_REQUEST_HEADERS_LENGTH = 4096;
const MAX_ECHO = 200;
/** Preflight answers kept per cors() (cleared when full). */
const MAX_ANSWERS = 256;
/** Origin lists kept checked for an `origins` function: the current one and a few changed out. */
const MAX_ORIGIN_LISTS = 4;

type OriginRule = (origin: string, c: Context<any, any>) => string | null | Promise<string | null>;

/**
 * Answer preflights (`OPTIONS` with `Access-Control-Request-Method`) with 204 and the allowed
 * methods, headers and max-age, and add `Access-Control-Allow-Origin` to the responses of
 * allowed origins. A refused origin gets no CORS header: the browser then hides the response
 * from the page. Register it where preflights reach it (`app.use('/api', cors(…))`): it
 * also runs for paths with no OPTIONS route. See docs/cors.md.
 *
 * @example
 * app.use('/api', cors({ origin: ['https://app.example'], credentials: true, maxAge: 3600 }));
 * // On Workers, the list from a variable:
 * app.use('/api', cors({ origins: (c) => c.env.ALLOWED_ORIGINS.split(','), credentials: true }));
 */
export function cors<E extends Env = any>(options: CorsOptions<E> = {}): Handler<E> {
  const credentials = options.credentials === true;
  if (options.origins !== undefined && options.origin !== undefined) throw new TypeError('cors(): give origin or origins, not both');
  const rule = options.origins !== undefined ? originsRule(options.origins) : originRule(options.origin ?? '*', credentials);
  const wildcard = options.origins === undefined && (options.origin === undefined || options.origin === '*');
  const methods = tokens(options.methods ?? DEFAULT_METHODS, 'methods');
  const allowedMethods = new Set(methods);
  const allowMethods = methods.join(', ');
  const fixedHeaders = options.headers === undefined ? undefined : tokens(options.headers, 'headers').map((h) => h.toLowerCase());
  const allowedHeaders = fixedHeaders === undefined ? undefined : new Set(fixedHeaders);
  const expose =
    options.exposeHeaders === undefined || options.exposeHeaders.length === 0 ? undefined : tokens(options.exposeHeaders, 'exposeHeaders').join(', ');
  const maxAge = options.maxAge ?? 600;
  if (!Number.isInteger(maxAge) || maxAge < 0) throw new RangeError('cors(): maxAge is a whole number of seconds');
  const maxAgeValue = String(maxAge);
  const fixedAllowHeaders = fixedHeaders?.join(', ');
  // What a preflight answer depends on: caches keep one per origin, and per request headers when they are reflected.
  const preflightVary = [wildcard ? '' : 'Origin', fixedHeaders === undefined ? 'Access-Control-Request-Headers' : ''].filter(Boolean).join(', ');

  // Allowed preflight answers by origin, method and requested headers: the same 204 each time.
  const answered = new Map<string, Preflight>();
  // The last one answered: a client repeats the same preflight, and three string compares cost
  // less than building the map's key.
  let last: { allow: string; method: string; asked: string | undefined; made: Preflight } | undefined;

  const refuse = (c: Context<any, any>, why: CorsRule, origin: string, preflight: boolean, detail: string): never => {
    c.emit('cors:rejected', () => ({ rule: why, origin, method: c.req.method, path: c.req.path, preflight }));
    if (!wildcard) c.header('vary', 'Origin', { append: true });
    throw new HttpError(403, `CORS: ${detail}`);
  };

  /** A request that is no preflight: the handlers answer, then the CORS headers are added. */
  const simple = async (c: Context<any, any>, next: Next, origin: string | undefined): Promise<void> => {
    const ruled = origin === undefined ? null : rule(origin, c);
    const allow = ruled instanceof Promise ? await ruled : ruled;
    if (origin !== undefined && allow === null)
      c.emit('cors:rejected', () => ({ rule: 'origin', origin, method: c.req.method, path: c.req.path, preflight: false }));
    await next();
    // A WebSocket upgrade (101) is no CORS request, and copying its response would break the socket.
    if ((allow === null && wildcard) || c.res.status === 101) return;
    editHeaders(c, (headers) => {
      // The answer depends on Origin unless it is `*` for everyone: caches must keep one per origin.
      if (!wildcard) appendVary(headers, 'Origin');
      if (allow === null) return;
      headers.set('access-control-allow-origin', allow);
      if (credentials) headers.set('access-control-allow-credentials', 'true');
      if (expose !== undefined) headers.set('access-control-expose-headers', expose);
    });
  };

  // Not async: a preflight is answered without a promise, so a route of plain layers stays synchronous.
  const layer: Handler<E> = (c, next) => {
    const req = c.req;
    const origin = req.header('origin');
    const method = origin !== undefined && req.method === 'OPTIONS' ? req.header('access-control-request-method') : undefined;
    if (method === undefined) return simple(c, next, origin);
    const from = origin as string; // a preflight has one
    const ruled = rule(from, c);
    // An async origin function: the preflight is answered when it has answered.
    if (ruled instanceof Promise) return ruled.then((allow) => preflight(c, from, method, allow));
    return preflight(c, from, method, ruled);
  };
  return named('cors', layer);

  function preflight(c: Context<any, any>, from: string, method: string, allow: string | null): Response {
    const req = c.req;
    if (allow === null) refuse(c, 'origin', from, true, `origin ${echo(from)} is not allowed`);
    const asked = req.header('access-control-request-headers');
    if (last !== undefined && last.allow === allow && last.method === method && last.asked === asked) return answer(c, last.made);
    // A browser asks the same preflight again and again: an allowed answer's headers are kept (bounded).
    const key = `${allow}\n${method}\n${asked ?? ''}`;
    const known = answered.get(key);
    if (known !== undefined) {
      last = { allow: allow!, method, asked, made: known };
      return answer(c, known);
    }
    if (!TOKEN.test(method)) refuse(c, 'method', from, true, 'Access-Control-Request-Method is not a method name');
    if (!SIMPLE_METHODS.has(method) && !allowedMethods.has(method)) refuse(c, 'method', from, true, `method ${echo(method)} is not allowed`);
    const requested = requestedHeaders(asked);
    if (requested === null) refuse(c, 'headers', from, true, 'Access-Control-Request-Headers is not a list of header names');
    if (allowedHeaders !== undefined) {
      const denied = requested!.find((h) => !allowedHeaders.has(h));
      if (denied !== undefined) refuse(c, 'headers', from, true, `header ${echo(denied)} is not allowed`);
    }
    const pairs: [string, string][] = [
      ['access-control-allow-origin', allow!],
      ['access-control-allow-methods', allowMethods],
      ['access-control-max-age', maxAgeValue],
    ];
    if (credentials) pairs.push(['access-control-allow-credentials', 'true']);
    const allowHeaders = fixedAllowHeaders ?? requested!.join(', ');
    if (allowHeaders !== '') pairs.push(['access-control-allow-headers', allowHeaders]);
    if (preflightVary !== '') pairs.push(['vary', preflightVary]);
    const made: Preflight = { headers: Object.fromEntries(pairs) };
    if (answered.size >= MAX_ANSWERS) answered.clear();
    answered.set(key, made);
    last = { allow: allow!, method, asked, made };
    return answer(c, made);
  }
}

/** A preflight answer's headers, made once per set of asked method and headers. */
interface Preflight {
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The 204 for a preflight, built by the context like any helper's response (the helper copies the
 * record, so what later middleware changes stays on this answer). Headers set earlier through
 * `c.header()` are kept.
 */
function answer(c: Context<any, any>, preflight: Preflight): Response {
  return c.body(null, 204, preflight.headers as Record<string, string>);
}

/** The origin option as a function from a request's Origin to the value to send (null: refused). */
function originRule(option: NonNullable<CorsOptions['origin']>, credentials: boolean): OriginRule {
  if (option === '*') {
    if (credentials) throw new TypeError('cors(): origin "*" cannot be used with credentials: list the origins that may send cookies');
    return () => '*';
  }
  if (typeof option === 'function') {
    return (origin, c) => {
      if (!isOriginSyntax(origin) && origin !== 'null') return null;
      const answer = option(origin, c);
      return answer instanceof Promise ? answer.then((a) => allows(a, origin)) : allows(answer, origin);
    };
  }
  const list = typeof option === 'string' ? [option] : option;
  if (!Array.isArray(list)) throw new TypeError('cors(): origin is "*", an origin, a list of origins or a function');
  if (list.includes('*')) throw new TypeError('cors(): "*" cannot be one origin in a list: use origin: "*" alone');
  const allowed = new Set(list.map((o) => normalizeOrigin(o, 'cors()')));
  return (origin) => (allowed.has(origin) ? origin : null);
}

/** Only `true`, or the origin itself, allows. */
function allows(answer: unknown, origin: string): string | null {
  return answer === true || answer === origin ? origin : null;
}

/**
 * The origins option: a function of the context whose list is checked and made a set once per
 * distinct list (kept by its text), so the same list on every request costs a compare. A list
 * that is not one (an unset variable, `*`, a path) throws a logged ConfigError: the request
 * fails with a 500 and the origin gets no CORS header.
 */
function originsRule(option: FromContext<any, CorsOrigins>): OriginRule {
  if (typeof option !== 'function') throw new TypeError('cors(): origins is a function of the context; give fixed origins as origin');
  const problems = new ConfigProblems();
  const sets = new Derived<readonly unknown[], Set<string>>(MAX_ORIGIN_LISTS, (list) => {
    if (list.includes('*')) throw problems.error('cors(): origins(c) gave "*": a wildcard is origin: "*", fixed');
    try {
      return new Set(list.map((o) => normalizeOrigin(o as string, 'cors(): origins(c)')));
    } catch (error) {
      throw problems.error((error as Error).message);
    }
  });
  return (origin, c) => {
    if (!isOriginSyntax(origin)) return null;
    let given: unknown;
    try {
      given = option(c);
    } catch (error) {
      throw problems.failed('cors(): origins(c)', error);
    }
    const list = asList(given);
    if (list === null || list.some((o) => typeof o !== 'string')) throw problems.error('cors(): origins(c) gave no origin list: is the variable set?');
    return sets.get(JSON.stringify(list), list).has(origin) ? origin : null;
  };
}

function tokens(list: readonly string[], option: string): string[] {
  if (!Array.isArray(list)) throw new TypeError(`cors(): ${option} is a list of names`);
  for (const name of list)
    if (typeof name !== 'string' || !TOKEN.test(name)) throw new TypeError(`cors(): ${JSON.stringify(name)} in ${option} is not a valid name`);
  return [...list];
}

/** The names in Access-Control-Request-Headers, lower-cased; null when any is not a header name (CR/LF included) or there are too many. */
function requestedHeaders(value: string | undefined): string[] | null {
  if (value === undefined || value.trim() === '') return [];
  if (value.length > MAX_REQUEST_HEADERS_LENGTH) return null;
  const names = value.split(',').map((s) => s.trim().toLowerCase());
  if (names.length > MAX_REQUEST_HEADERS) return null;
  for (const name of names) if (!TOKEN.test(name)) return null;
  return [...new Set(names)];
}

/** Change the response's headers, copying the response first when they are immutable (a fetch() response). */
function editHeaders(c: Context<any, any>, edit: (headers: Headers) => void): void {
  try {
    edit(c.res.headers);
  } catch {
    // An immutable Headers throws on the first change, so nothing was applied yet.
    c.res = new Response(c.res.body, c.res);
    edit(c.res.headers);
  }
}

function appendVary(headers: Headers, name: string): void {
  const current = headers.get('vary');
  if (current === null) headers.set('vary', name);
  else if (
    current.trim() !== '*' &&
    !current
      .toLowerCase()
      .split(',')
      .some((v) => v.trim() === name.toLowerCase())
  )
    headers.set('vary', `${current}, ${name}`);
}

function echo(value: string): string {
  return JSON.stringify(value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}…` : value).slice(1, -1);
}
