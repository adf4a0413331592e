import type { App } from '../core/app.ts';
import type { Handler } from '../core/compose.ts';
import type { Context, Env } from '../core/context.ts';
import { HttpError } from '../core/errors.ts';
import { recordValid, type ValidationIssue, validate } from '../core/validate.ts';
import { authSchemes, isRoute, routesOf } from './route.ts';
import type { AuthScheme, Contract, ContractHandler, ContractHandlers, Route, StandardSchemaV1 } from './types.ts';

/** What `implement()` takes besides the handlers. */
export interface ImplementOptions<E extends Env = any> {
  /** Middleware that runs before the validation, on every route registered here. */
  middleware?: Handler<E>[];
  /**
   * The middleware that enforces each auth scheme the routes declare, by scheme: a route that
   * declares `auth: 'jwt'` runs `auth.jwt` before its validation. A route that declares several
   * schemes takes a request that any of them accepts. A declared scheme with no middleware here
   * is refused at registration: a declaration never only documents.
   */
  auth?: Partial<Record<AuthScheme, Handler<E>>>;
}

/** The declared route of each handler `implement()` registered, for `openapi(app)`: found through `app.routeList`, mounts included. */
const declared = new WeakMap<Handler, Route>();

/** The declared route a route's handlers were registered for by `implement()`, if any. */
export function declaredRoute(handlers: readonly Handler[]): Route | undefined {
  return declared.get(handlers[handlers.length - 1]);
}

/** Headers have no reader in validate(): the same 400 for them, from a record of lower-case names. */
function validateHeaders(schema: StandardSchemaV1): Handler {
  const check = schema['~standard'].validate;
  const apply = (c: Context<any, any>, result: Awaited<ReturnType<typeof check>>, next: () => Promise<void>): unknown => {
    if (result.issues) {
      const errors: ValidationIssue[] = result.issues.map((i) => ({
        path: (i.path ?? []).map((p) => String(typeof p === 'object' && p !== null ? p.key : p)).join('.'),
        message: i.message,
      }));
      throw new HttpError(400, 'Invalid headers', { details: { errors } });
    }
    recordValid(c, 'headers', result.value);
    return next();
  };
  return (c, next) => {
    const record: Record<string, string> = {};
    (c.req.raw as Request).headers.forEach((value, name) => {
      record[name] = value;
    });
    const result = check(record);
    return result instanceof Promise ? result.then((r) => apply(c, r, next)) : apply(c, result, next);
  };
}

/**
 * The middleware that enforces a route's declared auth: the one scheme's, or, for several, the first
 * that accepts the request (a 401 from one tries the next; the first 401 answers when none does).
 */
function enforcer(route: Route, given: ImplementOptions['auth']): Handler[] {
  const schemes = authSchemes(route);
  if (schemes.length === 0) return [];
  const checks = schemes.map((scheme) => {
    const check = given?.[scheme as AuthScheme];
    if (typeof check !== 'function') {
      throw new TypeError(
        `implement(): ${route.method} ${route.path} declares auth '${scheme}', and nothing enforces it: pass implement(app, …, handlers, { auth: { ${scheme}: … } }) with the middleware that checks it (rove/auth)`,
      );
    }
    return check;
  });
  if (checks.length === 1) return checks;
  return [
    async (c, next) => {
      let refused: unknown;
      for (const check of checks) {
        let passed = false;
        try {
          return await check(c, () => {
            passed = true;
            return next();
          });
        } catch (error) {
          // Only a refusal before the route ran tries the next scheme.
          if (passed || !(error instanceof HttpError) || error.status !== 401) throw error;
          refused ??= error;
        }
      }
      throw refused;
    },
  ];
}

/** The validation layers of a route, cheapest first, the body last. */
function validators(route: Route): Handler[] {
  const { params, query, headers, json, form } = route.request;
  const out: Handler[] = [];
  if (params) out.push(validate('params', params));
  if (query) out.push(validate('query', query));
  if (headers) out.push(validateHeaders(headers));
  if (json) out.push(validate('json', json));
  if (form) out.push(validate('form', form));
  return out;
}

/**
 * Register declared routes on an app: each validates its declared request parts as
 * `validate()` does (400 or 415 problem+json) before its handler runs. In the handler,
 * `c.valid(part)` is typed from the schemas, and `c.json(body, status)` compiles only for a
 * declared status with a body that fits its schema. Plain routes keep working beside them.
 *
 * Give one route and its handler, or a contract (a `group()` or a record of routes) and
 * handlers by the same names. `middleware` runs before the validation; `auth` gives the middleware
 * that enforces each declared auth scheme, and a declared scheme without one is refused here.
 *
 * @example
 * implement(app, getUser, (c) => {
 *   const { id } = c.valid('params');
 *   return id === 1 ? c.json({ id, name: 'Ada' }, 200) : c.body(null, 404);
 * });
 * implement(app, api, { users: { list: (c) => c.json([]), get: (c) => c.json(user) } }, { auth: { jwt: jwt({ secret }) } });
 */
export function implement<E extends Env, const T extends Route<any, any, any, any>>(
  app: App<E>,
  route: T,
  handler: ContractHandler<E, T>,
  options?: ImplementOptions<E>,
): App<E>;
export function implement<E extends Env, const C extends Contract>(
  app: App<E>,
  contract: C,
  handlers: ContractHandlers<E, C>,
  options?: ImplementOptions<E>,
): App<E>;
export function implement(app: App<any>, target: Route | Contract, handlers: unknown, options: ImplementOptions = {}): App<any> {
  const list = routesOf(target);
  // Check every handler first: a missing one registers nothing.
  const pairs = list.map(({ name, route }) => {
    let fn: unknown = handlers;
    if (!isRoute(target)) for (const key of name) fn = (fn as Record<string, unknown> | undefined)?.[key];
    if (typeof fn !== 'function') throw new TypeError(`implement(): no handler for ${name.join('.') || route.method} ${route.path}`);
    return { route, fn: fn as Handler, auth: enforcer(route, options.auth) };
  });
  for (const { route, fn, auth } of pairs) {
    // One function registered for two routes gets a wrapper, so each route keeps its own declaration.
    const handler: Handler = declared.has(fn) ? (c, next) => fn(c, next) : fn;
    app.method(route.method, route.path, ...(options.middleware ?? []), ...auth, ...validators(route), handler);
    declared.set(handler, route);
  }
  return app;
}
