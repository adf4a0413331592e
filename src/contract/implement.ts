import type { App } from '../app.ts';
import type { Handler } from '../compose.ts';
import type { Context, Env } from '../context.ts';
import { HttpError } from '../errors.ts';
import { recordValid, type ValidationIssue, validate } from '../validate.ts';
import { isRoute, routesOf } from './route.ts';
import type { Contract, ContractHandler, ContractHandlers, Route, StandardSchemaV1 } from './types.ts';

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
 * handlers by the same names. `middleware` runs before the validation (an auth check).
 *
 * @example
 * implement(app, getUser, (c) => {
 *   const { id } = c.valid('params');
 *   return id === 1 ? c.json({ id, name: 'Ada' }, 200) : c.body(null, 404);
 * });
 * implement(app, api, { users: { list: (c) => c.json([]), get: (c) => c.json(user) } });
 */
export function implement<E extends Env, const T extends Route<any, any, any, any>>(
  app: App<E>,
  route: T,
  handler: ContractHandler<E, T>,
  options?: { middleware?: Handler<E>[] },
): App<E>;
export function implement<E extends Env, const C extends Contract>(
  app: App<E>,
  contract: C,
  handlers: ContractHandlers<E, C>,
  options?: { middleware?: Handler<E>[] },
): App<E>;
export function implement(app: App<any>, target: Route | Contract, handlers: unknown, options: { middleware?: Handler[] } = {}): App<any> {
  const list = routesOf(target);
  // Check every handler first: a missing one registers nothing.
  const pairs = list.map(({ name, route }) => {
    let fn: unknown = handlers;
    if (!isRoute(target)) for (const key of name) fn = (fn as Record<string, unknown> | undefined)?.[key];
    if (typeof fn !== 'function') throw new TypeError(`implement(): no handler for ${name.join('.') || route.method} ${route.path}`);
    return { route, fn: fn as Handler };
  });
  for (const { route, fn } of pairs) {
    // One function registered for two routes gets a wrapper, so each route keeps its own declaration.
    const handler: Handler = declared.has(fn) ? (c, next) => fn(c, next) : fn;
    app.method(route.method, route.path, ...(options.middleware ?? []), ...validators(route), handler);
    declared.set(handler, route);
  }
  return app;
}
