/**
 * Middleware scopes, resolved when the app is built. A scope is parsed by the
 * same parser as routes and compared with each route variant segment by
 * segment, on decoded text: it covers the route always, never, or only when
 * the route's params hold the scope's segments (a guard on decoded params,
 * never a regex on the raw path).
 */
import type { Handler } from '../core/compose.ts';
import { parseRoute, RouteError, type Segment } from './pattern.ts';
import type { Params } from './router.ts';

export type SegmentTest = (text: string) => boolean;

/** A guard's question: do this request's decoded params put it under the scope? */
export type ScopeGuard = (params: Params) => boolean;

/** The decoded segments a request must start with to be under `prefix` (`/api`, `/api/*` and `/api/` alike). */
export function parseScope(prefix: string): Segment[] {
  const segments = parseRoute(prefix === '' || prefix === '*' ? '/' : prefix);
  const last = segments[segments.length - 1];
  if (last !== undefined && (last.kind === 'wildcard' || (last.kind === 'static' && last.text === ''))) segments.pop();
  for (const s of segments) {
    if (s.kind === 'param' && s.optional) throw new RouteError(`A middleware prefix cannot have an optional param: ${prefix}`);
  }
  return segments;
}

/** What one scope segment accepts of a request's decoded segment. */
export function segmentTest(s: Segment): SegmentTest {
  if (s.kind === 'static') return (text) => text === s.text;
  if (s.kind === 'param' && s.re !== null) {
    const re = s.re;
    return (text) => re.test(text);
  }
  return (text) => text.length > 0;
}

/** Does a scope cover every request of a route variant (true), none (false), or those a guard lets through? */
export function relate(scope: Segment[], route: Segment[]): boolean | ScopeGuard {
  const checks: { name: string; test: SegmentTest }[] = [];
  let rest: { name: string; tests: SegmentTest[] } | undefined;
  for (let i = 0; i < scope.length; i++) {
    const s = scope[i];
    const r = route[i];
    if (r === undefined) return false;
    if (r.kind === 'wildcard') {
      rest = { name: r.name, tests: scope.slice(i).map(segmentTest) };
      break;
    }
    if (r.kind === 'static') {
      if (!segmentTest(s)(r.text)) return false;
      continue;
    }
    // Both plain params accept any non-empty segment; equal constraints accept the same ones.
    if (s.kind === 'param' && (s.re === null ? r.re === null : s.source === r.source)) continue;
    checks.push({ name: r.name, test: segmentTest(s) });
  }
  if (checks.length === 0 && rest === undefined) return true;
  return (params) => {
    for (const check of checks) if (!check.test(params[check.name])) return false;
    return rest === undefined || startsWith(params[rest.name].split('/'), rest.tests);
  };
}

/** Whether decoded segments start with what the tests accept. */
export function startsWith(segments: string[], tests: SegmentTest[]): boolean {
  if (segments.length < tests.length) return false;
  for (let i = 0; i < tests.length; i++) if (!tests[i](segments[i])) return false;
  return true;
}

/** Run `fn` only for requests its scope covers. */
export function guarded(guard: ScopeGuard, fn: Handler): Handler {
  return (c, next) => (guard(c.params) ? fn(c, next) : next());
}
