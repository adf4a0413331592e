/**
 * Route params typed from the pattern string, so `c.req.param('id')` on `/users/:id` is a
 * `string` and `c.req.param('nope')` does not compile. Types only: nothing here runs.
 *
 * Why this shape: a pattern is reduced once, at the route, to its param keys (`'id' | 'page?'`),
 * and the context is typed by those keys, not by the pattern. Routes with the same keys then
 * share one context type, so a few hundred routes still type-check fast
 * (docs/benchmarks/types.md has the figures).
 */

/** The key of one param segment's text after `:`: `id` for `id` and `id{[0-9]+}`, `id?` when optional. */
type Key<S extends string> = S extends `${infer Name}{${string}}?` ? `${Name}?` : S extends `${infer Name}{${string}` ? Name : S;

/**
 * The param keys of a pattern, optional ones ending in `?`: `'org' | 'id?'` for `/orgs/:org/:id?`,
 * `'path'` for `/files/*path`, `'*'` for a bare `*`. Only `/:` and `/*` start a param, as in the
 * router. For a pattern that is not a literal (a plain `string`), `string`: any name.
 */
export type ParamKeys<P extends string> = string extends P
  ? string
  : P extends `${string}/:${infer Rest}`
    ? Rest extends `${infer Segment}/${infer Tail}`
      ? Key<Segment> | ParamKeys<`/${Tail}`>
      : Key<Rest>
    : P extends `${string}/*${infer Name}` | `*${infer Name}`
      ? Name extends ''
        ? '*'
        : Name
      : never;

type RequiredKey<K> = K extends `${string}?` ? never : K;
type OptionalKey<K> = K extends `${infer Name}?` ? Name : never;

/** The names `param(name)` accepts for keys `K`. */
export type ParamName<K extends string> = string extends K ? string : RequiredKey<K> | OptionalKey<K>;

/** What `param(name)` gives: `string` for a declared param, `string | undefined` for an optional one or untyped keys. */
export type ParamValue<K extends string, N extends string> = string extends K ? string | undefined : N extends RequiredKey<K> ? string : string | undefined;

/** What `param()` gives: every declared param, the optional ones possibly absent. */
export type PathParams<K extends string> = string extends K ? Record<string, string> : { [N in RequiredKey<K>]: string } & { [N in OptionalKey<K>]?: string };
