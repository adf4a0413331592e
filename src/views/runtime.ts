import type { Pos } from './ast.ts';
import { ViewError, type ViewErrorKind } from './errors.ts';
import { escapeHtml } from './escape.ts';
import { SafeHtml } from './safe.ts';

/**
 * One loop (name !== null) or one set of include arguments (vars !== null).
 * A loop reuses its frame for every iteration.
 */
export class Frame {
  index = 0;
  constructor(
    readonly parent: Frame | null,
    readonly name: string | null,
    public value: unknown,
    readonly length: number,
    readonly vars: Record<string, unknown> | null,
  ) {}
}

/** The blocks passed to a layout, with the scope they were written in. */
export interface BlockContext {
  readonly table: Record<string, Eff>;
  readonly frame: Frame | null;
  readonly outer: BlockContext | null;
}

/** Per-render state: the one object a render allocates besides loop frames. */
export class State {
  out = '';
  frame: Frame | null = null;
  iters = 0;
  depth = 0;
  blocks: BlockContext | null = null;
  /** The locale of the date and number filters, once a filter asked (null before). */
  locale: string | undefined | null = null;
  constructor(readonly root: unknown) {}
}

export type Val = (st: State) => unknown;
export type Str = (st: State) => string;
export type Eff = (st: State) => void;

/** Where a tag is, for render errors. */
export interface Site {
  view: string;
  at: Pos;
  tag: string;
}

export function siteError(site: Site, kind: ViewErrorKind, reason: string, cause?: unknown): ViewError {
  return new ViewError({ kind, view: site.view, line: site.at[0], column: site.at[1], reason: `${site.tag}: ${reason}`, cause });
}

export const hasOwn = Object.prototype.hasOwnProperty;

/** A property of `o`, but only an own one: no prototype, no inherited methods. */
export function own(o: unknown, key: string | number): unknown {
  return o != null && hasOwn.call(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

/**
 * A name not bound by a loop of the current view: look through the frames of
 * the views that included this one, then the data. `skip` is the number of
 * this view's own loops around the tag, which cannot bind it.
 */
export function lookupFree(st: State, skip: number, name: string): unknown {
  let f = st.frame;
  for (let i = 0; i < skip; i++) f = f!.parent;
  while (f !== null) {
    if (f.name === name) return f.value;
    const vars = f.vars;
    if (vars !== null && hasOwn.call(vars, name)) return vars[name];
    f = f.parent;
  }
  const root = st.root;
  return root != null && hasOwn.call(root, name) ? (root as Record<string, unknown>)[name] : undefined;
}

/** The innermost loop, wherever it was opened (an including view's loop counts). */
export function innermostLoop(st: State): Frame | null {
  let f = st.frame;
  while (f !== null && f.name === null) f = f.parent;
  return f;
}

export function toHtml(v: unknown, site: Site): string {
  if (typeof v === 'string') return escapeHtml(v);
  if (typeof v === 'number') return `${v}`;
  if (v == null) return '';
  // Trusted HTML, made only by safe(): written as it is.
  if (SafeHtml.is(v)) return v.toString();
  return escapeHtml(stringify(v, site));
}

export function toRaw(v: unknown, site: Site): string {
  if (typeof v === 'string') return v;
  if (v == null) return '';
  return stringify(v, site);
}

function stringify(v: unknown, site: Site): string {
  // A function's source text is an implementation detail, never page content.
  if (typeof v === 'function') return '';
  try {
    return String(v);
  } catch (e) {
    throw siteError(site, 'render', 'the value cannot be converted to text', e);
  }
}
