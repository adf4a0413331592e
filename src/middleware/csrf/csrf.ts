// csrf(): unsafe requests must come from this origin (Origin, else Sec-Fetch-Site), and form
// posts must carry the session's token. Each refusal is a 403 that names its rule.
import type { Handler } from '../../core/compose.ts';
import type { Context, Env } from '../../core/context.ts';
import { HttpError } from '../../core/errors.ts';
// Forms are what csrf() guards: the handler reads them with c.req.form().
import type { CsrfRule } from '../../core/event-map.ts';
import { asList, ConfigProblems, Derived, type FromContext } from '../../core/from-context.ts';
import { named } from '../../core/named.ts';
import { isFormType } from '../../core/request.ts';
import { isSameOrigin, normalizeOrigin } from '../../http/origin.ts';
import { verifyCsrfToken } from './token.ts';

/** Origins as `scheme://host[:port]`: one, or a list. */
export type CsrfOrigins = string | readonly string[];

export interface CsrfOptions<E extends Env = any> {
  /**
   * Origins allowed besides the request's own (`https://app.example`), or a function that
   * decides, at once or with a promise; only `true` allows. Needed behind a proxy that changes
   * the scheme or host the app sees.
   */
  origin?: string | readonly string[] | ((origin: string, c: Context<any, any>) => boolean | Promise<boolean>);
  /**
   * Those origins as a function of the context, for a list kept in `c.env` (Workers):
   * `(c) => [c.env.PUBLIC_ORIGIN]`. Called only for a request from another origin; what it gives
   * is checked as `origin` would be, once per distinct list. Instead of `origin`.
   */
  origins?: FromContext<E, CsrfOrigins | Promise<CsrfOrigins>>;
  /** Check the session's token (`_csrf` field or `x-csrf-token` header) on form posts. Default true; needs session(). */
  token?: boolean;
  /** The form field holding the token. Default `_csrf`. */
  field?: string;
  /** The header holding the token. Default `x-csrf-token`. */
  header?: string;
}

/** Which rule refused a request. */
export type { CsrfRule } from '../../core/event-map.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
/** Sec-Fetch-Site values a page of this origin (or the user, typing a URL) produces. */
const OWN_SITE = new Set(['same-origin', 'none']);
const BEARER = /^bearer\s/i;
/** Longer header values are not echoed in the refusal. */
const MAX_ECHO = 200;
/** Origin lists kept checked for an `origins` function: the current one and a few changed out. */
const MAX_ORIGIN_LISTS = 4;

/**
 * Refuse cross-site unsafe requests (POST, PUT, PATCH, DELETE, …) with 403 problem+json.
 *
 * 1. `Origin`, when sent, must be this app's origin or one allowed by `origin`.
 * 2. Without `Origin`, `Sec-Fetch-Site` must be `same-origin` (or `none`).
 * 3. Form bodies (urlencoded, multipart, text/plain), and requests that send neither header,
 *    must carry the session's token (`csrfToken(c)`) in the `_csrf` field or the
 *    `x-csrf-token` header. A token sent in the header is always checked.
 *
 * Reading the token from a form uses `c.req.formData()`, which keeps the parsed body: the
 * handler's `c.req.form()` reads it again for free. Requests with `Authorization: Bearer …` are
 * not checked: browsers never attach a bearer token by themselves. See docs/csrf.md.
 *
 * @example
 * app.use(session({ keys: (c) => [c.env.SESSION_SECRET] }));
 * app.use(csrf());
 * app.post('/notes', async (c) => { const form = await c.req.form(); … });
 * // Behind a proxy, the public origin from a variable (Workers: c.env):
 * app.use(csrf({ origins: (c) => [c.env.PUBLIC_ORIGIN] }));
 */
export function csrf<E extends Env = any>(options: CsrfOptions<E> = {}): Handler<E> {
  if (options.origins !== undefined && options.origin !== undefined) throw new TypeError('csrf(): give origin or origins, not both');
  const allowed = options.origins !== undefined ? originsRule(options.origins) : originRule(options.origin);
  const checkToken = options.token ?? true;
  const field = options.field ?? '_csrf';
  const header = (options.header ?? 'x-csrf-token').toLowerCase();
  if (typeof field !== 'string' || field === '') throw new TypeError('csrf(): field must be a non-empty string');

  const refuse = (c: Context<any, any>, rule: CsrfRule, detail: string, origin: string | undefined): never => {
    c.emit('csrf:rejected', () => ({ rule, method: c.req.method, path: c.req.path, origin }));
    throw new HttpError(403, `CSRF: ${detail}`);
  };

  const guard: Handler<E> = async (c, next) => {
    const method = c.req.method;
    if (SAFE_METHODS.has(method)) return next();
    // A browser never attaches a bearer token by itself, and a page on another origin can send one
    // only after a CORS preflight the app allowed: such a request is no forgery.
    const authorization = c.req.header('authorization');
    if (BEARER.test(authorization ?? '')) return next();
    const origin = c.req.header('origin');
    let fromOwnSite = false;
    if (origin !== undefined) {
      // A fixed list answers at once; an origins function may answer with a promise (a throw refuses: 500).
      let ok: unknown = isSameOrigin(origin, c.req.url) || allowed(origin, c);
      if (typeof ok !== 'boolean') ok = await ok;
      // Only true allows: a predicate from untyped JS that answers a promise or a string never fails open.
      if (ok !== true) {
        refuse(
          c,
          'origin',
          origin === 'null' ? 'origin "null" (a sandboxed page, a file or a redirect) is not allowed' : `origin ${echo(origin)} is not allowed`,
          origin,
        );
      }
      fromOwnSite = true;
    } else {
      const site = c.req.header('sec-fetch-site');
      if (site !== undefined) {
        if (!OWN_SITE.has(site)) refuse(c, 'sec-fetch-site', `Sec-Fetch-Site is ${echo(site)}; unsafe requests must come from this origin`, undefined);
        fromOwnSite = true;
      }
    }
    if (checkToken) {
      const type = c.req.header('content-type') ?? null;
      const sent = c.req.header(header);
      // Neither header: not a browser we can vouch for, so only a valid token lets it through, when
      // it carries what a browser attaches by itself (cookies, cached Basic credentials). Without
      // either it speaks for no one: an unauthenticated DELETE from a script reaches the auth
      // middleware (401), not a CSRF 403. Forms and text/plain always need the token.
      const ambient = c.req.header('cookie') !== undefined || authorization !== undefined;
      const needed = sent !== undefined || (!fromOwnSite && ambient) || isFormType(type) || isTextPlain(type);
      if (needed) {
        const token = sent ?? (isFormType(type) ? await formToken(c, field) : undefined);
        if (token === undefined) {
          // The hint fits the client: a form gets its hidden field, any other client the header.
          const hint = isFormType(type)
            ? `no token in the ${field} form field (put csrfToken(c) in the form)`
            : `no token in the ${header} header (send csrfToken(c) there, or authenticate with Authorization: Bearer)`;
          refuse(c, 'token-missing', hint, origin);
        } else if (!(await verifyCsrfToken(c, token))) refuse(c, 'token-invalid', `the ${field} token does not belong to this session`, origin);
      }
    }
    return next();
  };
  return named('csrf', guard);
}

/** The token field of a form body, read through c.req.formData(): the body limit applies, and the handler can read the form again. */
async function formToken(c: Context<any, any>, field: string): Promise<string | undefined> {
  const value = (await c.req.formData()).get(field);
  return typeof value === 'string' ? value : undefined;
}

function isTextPlain(type: string | null): boolean {
  return type?.trim().toLowerCase().startsWith('text/plain') === true;
}

function echo(value: string): string {
  return JSON.stringify(value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}…` : value).slice(1, -1);
}

/**
 * The `origins` option as a test. A list is checked and made a set once per distinct list (kept
 * by its text); one that is not a list of origins throws a logged ConfigError: the request is
 * refused with a 500, never let through.
 */
function originsRule(option: FromContext<any, CsrfOrigins | Promise<CsrfOrigins>>): (origin: string, c: Context<any, any>) => Promise<boolean> {
  if (typeof option !== 'function') throw new TypeError('csrf(): origins is a function of the context; give fixed origins as origin');
  const problems = new ConfigProblems();
  const sets = new Derived<readonly unknown[], Set<string>>(MAX_ORIGIN_LISTS, (list) => {
    try {
      return new Set(list.map((o) => normalizeOrigin(o as string, 'csrf(): origins(c)')));
    } catch (error) {
      throw problems.error((error as Error).message);
    }
  });
  return async (origin, c) => {
    let given: unknown;
    try {
      given = await option(c);
    } catch (error) {
      throw problems.failed('csrf(): origins(c)', error);
    }
    const list = asList(given);
    if (list === null || list.some((o) => typeof o !== 'string')) throw problems.error('csrf(): origins(c) gave no origin list: is the variable set?');
    return sets.get(JSON.stringify(list), list).has(origin);
  };
}

/** The `origin` option as a test, normalised once at registration. */
function originRule(option: CsrfOptions['origin']): (origin: string, c: Context<any, any>) => boolean | Promise<boolean> {
  if (option === undefined) return () => false;
  if (typeof option === 'function') return option;
  const list = typeof option === 'string' ? [option] : option;
  const set = new Set(list.map((o) => normalizeOrigin(o, 'csrf()')));
  return (origin) => set.has(origin);
}
