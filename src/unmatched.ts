/**
 * The chains of requests no route answers (404, 405 and automatic OPTIONS). Any path may come, so
 * they cannot be composed ahead of time: a path's decoded segments are tested against every
 * middleware scope, and one chain is composed per distinct set of covering middleware, then kept.
 * Both maps are bounded, so random paths cannot grow memory.
 */
import { covering, type ScopedMiddleware } from './app-table.ts';
import { compose, type ErrorResponder, type Handler } from './compose.ts';
import type { Context } from './context.ts';
import { decodeSegments } from './path.ts';

type Chain = (c: Context<any, any>) => unknown;

/** Distinct middleware sets, and raw paths, whose chains are kept. */
const MAX_KEPT = 1024;

/**
 * The chain finder of one compiled table: `scoped` is every middleware with its full scope, `end`
 * the handler that answers last. It returns null for a path whose percent-encoding is malformed.
 */
export function unmatchedChains(scoped: ScopedMiddleware[], end: Handler, onError: ErrorResponder): (path: string) => Chain | null {
  const byKey = new Map<string, Chain>();
  // Raw path -> its chain, so a repeated preflight or 404 skips decoding and the scope scan.
  const byPath = new Map<string, Chain>();
  return (path) => {
    const known = byPath.get(path);
    if (known !== undefined) return known;
    const segments = decodeSegments(path);
    if (segments === null) return null;
    const { key, fns } = covering(scoped, segments);
    let chain = byKey.get(key);
    if (chain === undefined) {
      chain = compose([...fns, end], onError);
      if (byKey.size < MAX_KEPT) byKey.set(key, chain);
    }
    if (byPath.size < MAX_KEPT) byPath.set(path, chain);
    return chain;
  };
}
