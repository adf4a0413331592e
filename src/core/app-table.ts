/**
 * The app's route table as data: every app's routes, middleware and mounts are walked
 * into full paths and full middleware scopes, and each route variant's chain is picked
 * here when the app compiles its table (app.ts registers them; each is composed on its first request).
 */

import { joinPath, type Segment } from '../routing/pattern.ts';
import { guarded, parseScope, relate, type SegmentTest, segmentTest } from '../routing/scope.ts';
import type { ErrorResponder, Handler } from './compose.ts';
import type { Context } from './context.ts';

export interface RouteDef {
  method: string;
  path: string;
  handlers: Handler[];
  /** The pattern's variants, parsed once when the route is registered. */
  variants: Segment[][];
}

export type Chain = (c: Context<any, any>) => unknown;

/** A compiled route variant: its chain, and the error handler of the app that registered it. */
export interface CompiledRoute {
  chain: Chain;
  onError: ErrorResponder;
  /** null: the chain of requests no route answers (listeners see no pattern). */
  pattern: string | null;
}

/**
 * A route whose chain `make` composes on its first request (a table rebuilt after a change starts
 * over): compiling the table does not compose the chains of routes nobody has asked for yet.
 */
export function lazyRoute(pattern: string | null, onError: ErrorResponder, make: () => Chain): CompiledRoute {
  const route: CompiledRoute = {
    chain: (c) => {
      route.chain = make();
      return route.chain(c);
    },
    onError,
    pattern,
  };
  return route;
}

/** What one app holds: its own routes and middleware, and the apps mounted on it. */
export interface AppParts<A> {
  routes: RouteDef[];
  middleware: { prefix: string; fn: Handler }[];
  mounts: { prefix: string; app: A }[];
}

/** Middleware with its full scope, as decoded segments and as tests for the 404 path. */
export interface ScopedMiddleware {
  segments: Segment[];
  tests: SegmentTest[];
  fn: Handler;
}

/**
 * Visit every route under `app` with its full path and the middleware above it, and return
 * every app's middleware with full scopes.
 */
export function walkApps<A>(
  partsOf: (app: A) => AppParts<A>,
  app: A,
  prefix: string,
  parents: ScopedMiddleware[],
  visit: (app: A, route: RouteDef, full: string, mws: ScopedMiddleware[]) => void,
): ScopedMiddleware[] {
  const { routes, middleware, mounts } = partsOf(app);
  const own = middleware.map((m) => {
    const segments = parseScope(joinPath(prefix, m.prefix));
    return { segments, tests: segments.map(segmentTest), fn: m.fn };
  });
  const mws = [...parents, ...own];
  for (const route of routes) visit(app, route, joinPath(prefix, route.path), mws);
  const all = [...own];
  for (const m of mounts) all.push(...walkApps(partsOf, m.app, joinPath(prefix, m.prefix), mws, visit));
  return all;
}

/** A route variant's layers: the middleware whose scope covers it (guarded when only some requests are), then its handlers. */
export function variantChain(mws: ScopedMiddleware[], variant: Segment[], handlers: Handler[]): Handler[] {
  const chain: Handler[] = [];
  for (const m of mws) {
    const rel = relate(m.segments, variant);
    if (rel === true) chain.push(m.fn);
    else if (rel !== false) chain.push(guarded(rel, m.fn));
  }
  chain.push(...handlers);
  return chain;
}
