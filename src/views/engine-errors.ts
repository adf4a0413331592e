// The errors the view engine raises while loading, linking and rendering,
// placed at the view and position they come from.
import type { Pos } from './ast.ts';
import type { Dependency } from './compile.ts';
import { ViewError } from './errors.ts';
import { candidates, normalizeName } from './names.ts';

/** A loaded view: its key and its source text, when it was loaded from text. */
export interface Located {
  key: string;
  source: unknown;
}

/** The include or layout tag that asked for a view. */
export interface From {
  from: Located;
  dep: Pick<Dependency, 'at' | 'kind'>;
}

export function positioned(entry: Located, at: Pos, kind: ViewError['kind'], reason: string): ViewError {
  const source = typeof entry.source === 'string' ? entry.source : undefined;
  return new ViewError({ kind, view: entry.key, line: at[0], column: at[1], reason, source });
}

export function notFound(raw: string, from: From | null, ext: string): ViewError {
  const tried = candidates(raw, ext).join(' or ');
  if (from === null) return new ViewError({ kind: 'not-found', view: raw, reason: `no view named ${raw} (looked for ${tried})` });
  const tag = from.dep.kind === 'include' ? `{{> ${raw}}}` : `{{< ${raw}}}`;
  return positioned(from.from, from.dep.at, 'not-found', `${tag}: no view named ${raw} (looked for ${tried})`);
}

export function badName(raw: string, reason: string, from: From | null): ViewError {
  if (from === null) return new ViewError({ kind: 'not-found', view: raw, reason });
  return positioned(from.from, from.dep.at, 'not-found', reason);
}

export function checkedName(name: string): string {
  const n = normalizeName(name);
  if ('reason' in n) throw new TypeError(`views: bad view name ${JSON.stringify(name)}: ${n.reason}`);
  return n.name;
}

export function asViewError(err: unknown, view: string): ViewError {
  if (err instanceof ViewError) return err;
  return new ViewError({ kind: 'render', view, reason: 'loading the view failed', cause: err });
}

export function renderFailure(err: unknown, view: string): ViewError {
  if (err instanceof ViewError) return err;
  if (err instanceof RangeError) {
    // A stack overflow (deep include recursion of deeply nested views) or a string over the engine's maximum.
    return new ViewError({ kind: 'limit', view, reason: 'the render nested too deeply or grew too large for the runtime', cause: err });
  }
  return new ViewError({ kind: 'render', view, reason: 'a value threw while rendering', cause: err });
}
