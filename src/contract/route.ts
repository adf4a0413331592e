import { joinPath, parseRoute } from '../routing/pattern.ts';
import type { Contract, Method, MultipartSpec, Prefixed, RequestParts, Responses, Route, RouteSpec } from './types.ts';

const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const PARTS = new Set<string>(['params', 'query', 'headers', 'json', 'form', 'multipart']);
const AUTH = new Set<string>(['bearer', 'basic', 'jwt']);

function isSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as any)['~standard']?.validate === 'function';
}

/**
 * Declare a route: method, path, the request parts to validate, and the responses by status.
 * The declaration is a value: register it with `implement()`, describe it with `openapi()`,
 * call it with `createClient()`.
 *
 * @example
 * const getUser = route({
 *   method: 'GET',
 *   path: '/users/:id{[0-9]+}',
 *   request: { params: z.object({ id: z.coerce.number() }) },
 *   responses: { 200: User }, // a missing user: throw new HttpError(404), problem+json like the router's
 * });
 */
export function route<const M extends Method, const P extends string, const Q extends RequestParts = {}, const R extends Responses = Responses>(
  spec: RouteSpec<M, P, Q, R>,
): Route<M, P, Q, R> {
  const method = spec.method;
  if (!METHODS.has(method)) throw new TypeError(`route(): unsupported method "${method}"`);
  parseRoute(spec.path); // a bad pattern throws now, not when the route is registered
  const request = (spec.request ?? {}) as Q;
  for (const [part, schema] of Object.entries(request)) {
    if (!PARTS.has(part)) throw new TypeError(`route(): unknown request part "${part}" (params, query, headers, json, form, multipart)`);
    if (part === 'multipart') checkMultipart(schema);
    else if (!isSchema(schema)) throw new TypeError(`route(): request.${part} is not a Standard Schema`);
  }
  if (['json', 'form', 'multipart'].filter((b) => b in request).length > 1)
    throw new TypeError('route(): a request body is json, form or multipart, one of them');
  if ((method === 'GET' || method === 'HEAD') && ('json' in request || 'form' in request || 'multipart' in request))
    throw new TypeError(`route(): a ${method} request has no body`);
  const statuses = Object.keys(spec.responses ?? {});
  if (statuses.length === 0) throw new TypeError('route(): declare at least one response');
  for (const status of statuses) {
    const code = Number(status);
    if (!Number.isInteger(code) || code < 100 || code > 599) throw new TypeError(`route(): "${status}" is not an HTTP status`);
    const schema = spec.responses[code];
    if (schema !== null && !isSchema(schema)) throw new TypeError(`route(): responses[${status}] is neither a Standard Schema nor null`);
  }
  for (const scheme of authSchemes(spec)) if (!AUTH.has(scheme)) throw new TypeError(`route(): unknown auth "${scheme}" (bearer, basic, jwt)`);
  if (404 in spec.responses && constrainsParam(spec.path)) {
    throw new TypeError(
      `route(): ${method} ${spec.path} declares a 404, but the router answers this path's 404 itself (problem+json) when a param misses its pattern: leave 404 out and throw new HttpError(404) in the handler, which answers the same problem+json`,
    );
  }
  return Object.freeze({ ...spec, request: Object.freeze({ ...request }) }) as Route<M, P, Q, R>;
}

/** Whether a path has a param with a pattern: a segment that fits the path's shape may still miss the route. */
function constrainsParam(path: string): boolean {
  return parseRoute(path).some((s) => s.kind === 'param' && s.re !== null);
}

/**
 * Whether a value is a declared route (and not a group): by its shape, so routes declared
 * through another copy of this module count too. A group cannot name a member `responses`
 * that is an object beside a string `method` and `path`.
 */
export function isRoute(value: unknown): value is Route {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.method === 'string' && typeof v.path === 'string' && typeof v.responses === 'object' && v.responses !== null;
}

/** A route's auth schemes as a list. */
export function authSchemes(spec: Pick<RouteSpec, 'auth'>): readonly string[] {
  return spec.auth === undefined ? [] : typeof spec.auth === 'string' ? [spec.auth] : spec.auth;
}

/**
 * Put declared routes (and groups) under a path prefix: the same routes, with their paths
 * joined to it. Nest groups to build `/v1/users/...` from parts.
 *
 * @example
 * const api = group('/v1', { users: group('/users', { list: listUsers, get: getUser }) });
 * // api.users.get.path === '/v1/users/:id{[0-9]+}'
 */
export function group<const Pre extends string, const C extends Contract>(prefix: Pre, routes: C): Prefixed<Pre, C> {
  if (!prefix.startsWith('/') || prefix.endsWith('/')) throw new TypeError(`group(): a prefix starts with "/" and does not end with one: ${prefix}`);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(routes)) {
    if (isRoute(value)) out[name] = route({ ...value, path: joinPath(prefix, value.path) });
    else if (typeof value === 'object' && value !== null) out[name] = group(prefix, value as Contract);
    else throw new TypeError(`group(): "${name}" is neither a route() nor a group`);
  }
  return Object.freeze(out) as Prefixed<Pre, C>;
}

/** Every declared route of a contract (or the route itself), depth first, with its name path. */
export function routesOf(contract: Route | Contract, name: string[] = []): { name: string[]; route: Route }[] {
  if (isRoute(contract)) return [{ name, route: contract }];
  return Object.entries(contract).flatMap(([key, value]) => routesOf(value as Route | Contract, [...name, key]));
}

/** request.multipart: `{ fields?: schema, files: { name: { maxSize?, types?, required? } } }`. */
function checkMultipart(spec: unknown): void {
  const m = spec as MultipartSpec;
  if (typeof m !== 'object' || m === null || typeof m.files !== 'object' || m.files === null) {
    throw new TypeError('route(): request.multipart is { fields?: a Standard Schema, files: { [name]: { maxSize?, types?, required? } } }');
  }
  if (m.fields !== undefined && !isSchema(m.fields)) throw new TypeError('route(): request.multipart.fields is not a Standard Schema');
  for (const [name, file] of Object.entries(m.files)) {
    if (typeof file !== 'object' || file === null) throw new TypeError(`route(): request.multipart.files.${name} is not { maxSize?, types?, required? }`);
    if (file.maxSize !== undefined && (!Number.isSafeInteger(file.maxSize) || file.maxSize < 1))
      throw new TypeError(`route(): request.multipart.files.${name}.maxSize is not a positive integer`);
    if (file.types !== undefined && (!Array.isArray(file.types) || !file.types.every((t) => typeof t === 'string' && /^[\w.+-]+\/(\*|[\w.+-]+)$/.test(t)))) {
      throw new TypeError(`route(): request.multipart.files.${name}.types lists media types such as image/png or image/*`);
    }
  }
}
