// csrf(): unsafe requests must come from this origin (Origin, else Sec-Fetch-Site), and form
// posts must carry the session's token. Each refusal is a 403 that names its rule.
import type { Handler } from '../../compose.ts';
import type { Context } from '../../context.ts';
import { HttpError } from '../../errors.ts';
// Forms are what csrf() guards: the handler reads them with c.req.form(), which rove/form installs.
import type { CsrfRule } from '../../event-map.ts';
import { isSameOrigin, normalizeOrigin } from '../../origin.ts';
import { isFormType } from '../../request.ts';
import { verifyCsrfToken } from './token.ts';

export interface CsrfOptions {
  /**
   * Origins allowed besides the request's own (`https://app.example`), or a function that
   * decides. Needed behind a proxy that changes the scheme or host the app sees.
   */
  origin?: string | readonly string[] | ((origin: string, c: Context<any, any>) => boolean);
  /** Check the session's token (`_csrf` field or `x-csrf-token` header) on form posts. Default true; needs session(). */
  token?: boolean;
  /** The form field holding the token. Default `_csrf`. */
  field?: string;
  /** The header holding the token. Default `x-csrf-token`. */
  header?: string;
}

/** Which rule refused a request. */
export type { CsrfRule } from '../../event-map.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
/** Sec-Fetch-Site values a page of this origin (or the user, typing a URL) produces. */
const OWN_SITE = new Set(['same-origin', 'none']);
const BEARER = /^bearer\s/i;
/** Longer header values are not echoed in the refusal. */
const MAX_ECHO = 200;

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
 * app.use(session({ keys: [env.SESSION_SECRET] }));
 * app.use(csrf());
 * app.post('/notes', async (c) => { const form = await c.req.form(); … });
 */
export function csrf(options: CsrfOptions = {}): Handler {
  const allowed = originRule(options.origin);
  const checkToken = options.token ?? true;
  const field = options.field ?? '_csrf';
  const header = (options.header ?? 'x-csrf-token').toLowerCase();
  if (typeof field !== 'string' || field === '') throw new TypeError('csrf(): field must be a non-empty string');

  const refuse = (c: Context<any, any>, rule: CsrfRule, detail: string, origin: string | undefined): never => {
    c.emit('csrf:rejected', () => ({ rule, method: c.req.method, path: c.req.path, origin }));
    throw new HttpError(403, `CSRF: ${detail}`);
  };

  return async (c, next) => {
    const method = c.req.method;
    if (SAFE_METHODS.has(method)) return next();
    // A browser never attaches a bearer token by itself, and a page on another origin can send one
    // only after a CORS preflight the app allowed: such a request is no forgery.
    if (BEARER.test(c.req.header('authorization') ?? '')) return next();
    const origin = c.req.header('origin');
    let fromOwnSite = false;
    if (origin !== undefined) {
      if (!isSameOrigin(origin, c.req.url) && !allowed(origin, c)) {
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
      // Neither header: not a browser we can vouch for, so only a valid token lets it through.
      const needed = sent !== undefined || !fromOwnSite || isFormType(type) || isTextPlain(type);
      if (needed) {
        const token = sent ?? (isFormType(type) ? await formToken(c, field) : undefined);
        if (token === undefined)
          refuse(c, 'token-missing', `no token in the ${field} form field or the ${header} header (put csrfToken(c) in the form)`, origin);
        else if (!(await verifyCsrfToken(c, token))) refuse(c, 'token-invalid', `the ${field} token does not belong to this session`, origin);
      }
    }
    return next();
  };
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

/** The `origin` option as a test, normalised once at registration. */
function originRule(option: CsrfOptions['origin']): (origin: string, c: Context<any, any>) => boolean {
  if (option === undefined) return () => false;
  if (typeof option === 'function') return option;
  const list = typeof option === 'string' ? [option] : option;
  const set = new Set(list.map((o) => normalizeOrigin(o, 'csrf()')));
  return (origin) => set.has(origin);
}
