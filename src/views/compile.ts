import type { Binding, Node, Pos, ViewAst } from './ast.ts';
import { type CExpr, compileExpr, type ExprEnv, type Scope } from './compile-expr.ts';
import type { FilterDef } from './filters.ts';
import type { ViewLimits } from './limits.ts';
import { type BlockContext, type Eff, Frame, type Site, type State, type Str, siteError, toHtml, toRaw } from './runtime.ts';
import { buildIf, concat, type Item, noop, type Seq, seqItem, sequence, toEff, toStr } from './sequence.ts';

/**
 * AST -> nested closures. No code is generated from strings: every closure
 * below is written out here, chosen at compile time by the shape of the node.
 * Output is built by string concatenation: runs of "pure" nodes (text,
 * output, an `if` over pure branches) return strings that are concatenated;
 * loops, includes, layouts and slots append to `st.out`.
 */

/** A compiled view, linked to the views it includes by its engine. */
export interface Linked {
  /** Appends the view's output to st.out (used for includes and layouts). */
  run: Eff;
  /** The whole output as a string, when the view has no loop/include/layout/slot. */
  str: Str | null;
}

/** A reference to an included view or layout, filled in by the engine after loading. */
export interface Link {
  target: Linked | null;
}

export interface Dependency {
  name: string;
  at: Pos;
  kind: 'include' | 'layout';
  link: Link;
  /** For layouts: the blocks given, which the layout must have slots for. */
  blocks?: { name: string; at: Pos }[];
}

export interface CompiledView extends Linked {
  deps: Dependency[];
  /** Slot names this view defines. */
  slots: string[];
}

/** What views are compiled against besides their limits: the filters, and the default locale. */
export interface CompileOptions {
  filters: ReadonlyMap<string, FilterDef>;
  locale: string | undefined;
}

export function compileView(ast: ViewAst, view: string, limits: ViewLimits, options: CompileOptions): CompiledView {
  const ctx: Ctx = { view, limits, deps: [], slots: [], env: { filters: options.filters, view, locale: options.locale } };
  const seq = compileNodes(ast.body, [], ctx);
  return { run: toEff(seq), str: seq.eff === undefined ? toStr(seq) : null, deps: ctx.deps, slots: ctx.slots };
}

interface Ctx {
  view: string;
  limits: ViewLimits;
  deps: Dependency[];
  slots: string[];
  env: ExprEnv;
}

function compileNodes(nodes: readonly Node[], scope: Scope, ctx: Ctx): Seq {
  const items: Item[] = [];
  for (const node of nodes) {
    const item = compileNode(node, scope, ctx);
    const last = items[items.length - 1];
    if (item.k === 'text' && last !== undefined && last.k === 'text') last.v += item.v;
    else items.push(item);
  }
  // Bake the text around each pure node into its closure: `'(' + v + '/'` is one step.
  const effs: Eff[] = [];
  let run: (Str | string)[] = [];
  const flush = () => {
    const s = concat(run);
    run = [];
    if (s === '') return;
    if (typeof s === 'string')
      effs.push((st) => {
        st.out += s;
      });
    else
      effs.push((st) => {
        st.out += s(st);
      });
  };
  let pending = '';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.k === 'text') {
      pending += item.v;
    } else if (item.k === 'pure') {
      let suf = '';
      const next = items[i + 1];
      const afterNext = items[i + 2];
      // Trailing text goes into this node too, unless another pure node will take it as prefix.
      if (next !== undefined && next.k === 'text' && (afterNext === undefined || afterNext.k === 'eff')) {
        suf = next.v;
        i++;
      }
      run.push(item.make(pending, suf));
      pending = '';
    } else {
      if (pending !== '') run.push(pending);
      pending = '';
      flush();
      effs.push(item.f);
    }
  }
  if (pending !== '') run.push(pending);
  if (effs.length === 0) {
    const s = concat(run);
    return typeof s === 'string' ? { text: s } : { pure: s };
  }
  flush();
  return { eff: sequence(effs) };
}

// ---------------------------------------------------------------- nodes

function compileNode(node: Node, scope: Scope, ctx: Ctx): Item {
  switch (node.t) {
    case 'text':
      return { k: 'text', v: node.v };
    case 'out':
      return compileOut(node, scope, ctx);
    case 'if':
      return compileIf(node, scope, ctx);
    case 'each':
      return { k: 'eff', f: compileEach(node, scope, ctx) };
    case 'inc':
      return { k: 'eff', f: compileInclude(node, scope, ctx) };
    case 'lay':
      return { k: 'eff', f: compileLayout(node, scope, ctx) };
    case 'slot':
      return { k: 'eff', f: compileSlot(node, scope, ctx) };
  }
}

function site(ctx: Ctx, at: Pos, tag: string): Site {
  return { view: ctx.view, at, tag: `${tag} at line ${at[0]}, column ${at[1]}` };
}

function compileOut(node: Extract<Node, { t: 'out' }>, scope: Scope, ctx: Ctx): Item {
  const e = compileExpr(node.e, scope, ctx.env);
  const s = site(ctx, node.at, node.raw ? '{{{ }}}' : '{{ }}');
  if (e.constant) {
    const v = node.raw ? toRaw(e.value, s) : toHtml(e.value, s);
    return { k: 'text', v };
  }
  const f = e.f;
  if (e.type === 'number') {
    // Loop counters and arithmetic: no escaping, no type test.
    return { k: 'pure', make: (pre, suf) => (st) => pre + (f(st) as number) + suf };
  }
  if (node.raw) {
    return { k: 'pure', make: (pre, suf) => (st) => pre + toRaw(f(st), s) + suf };
  }
  return {
    k: 'pure',
    make: (pre, suf) => {
      if (pre === '' && suf === '') return (st) => toHtml(f(st), s);
      if (suf === '') return (st) => pre + toHtml(f(st), s);
      return (st) => pre + toHtml(f(st), s) + suf;
    },
  };
}

function compileIf(node: Extract<Node, { t: 'if' }>, scope: Scope, ctx: Ctx): Item {
  const branches: { test: CExpr; body: Seq }[] = [];
  for (const br of node.br) {
    const test = compileExpr(br.e, scope, ctx.env);
    if (test.constant && !test.value) continue; // never taken
    branches.push({ test, body: compileNodes(br.b, scope, ctx) });
    if (test.constant) break; // always taken: later branches and else are dead
  }
  const lastConst = branches.length > 0 && branches[branches.length - 1]!.test.constant;
  const els: Seq = lastConst ? { text: '' } : node.el ? compileNodes(node.el, scope, ctx) : { text: '' };
  if (lastConst) {
    const only = branches.pop()!;
    if (branches.length === 0) return seqItem(only.body);
    return buildIf(branches, only.body);
  }
  if (branches.length === 0) return seqItem(els);
  return buildIf(branches, els);
}

function compileEach(node: Extract<Node, { t: 'each' }>, scope: Scope, ctx: Ctx): Eff {
  const coll = compileExpr(node.e, scope, ctx.env).f;
  const body = compileNodes(node.b, [...scope, node.as], ctx);
  const els = node.el ? toEff(compileNodes(node.el, scope, ctx)) : noop;
  const s = site(ctx, node.at, '{{#each}}');
  const { loopIterations: maxLoop, totalIterations: maxTotal, outputSize: maxOut } = ctx.limits;
  const name = node.as;

  // Everything that can throw in the loop header is outside the hot path.
  const start = (st: State): Frame | null => {
    let c = coll(st);
    if (!Array.isArray(c)) {
      c = iterate(c, maxLoop, s);
      if (c === null) return null;
    }
    const n = (c as unknown[]).length;
    if (n === 0) return null;
    if (n > maxLoop) throw siteError(s, 'limit', `a loop over ${n} items exceeds limits.loopIterations (${maxLoop})`);
    if ((st.iters += n) > maxTotal) throw siteError(s, 'limit', `loops ran more than limits.totalIterations (${maxTotal}) in one render`);
    const f = new Frame(st.frame, name, c, n, null);
    st.frame = f;
    return f;
  };
  const tooLong = () => siteError(s, 'limit', `output exceeds limits.outputSize (${maxOut} characters)`);

  if (body.eff === undefined) {
    const b = toStr(body);
    return (st) => {
      const f = start(st);
      if (f === null) return els(st);
      const items = f.value as unknown[];
      const n = f.length;
      let out = st.out;
      for (let i = 0; i < n; i++) {
        f.index = i;
        f.value = items[i];
        out += b(st);
        if (out.length > maxOut) throw tooLong();
      }
      st.out = out;
      st.frame = f.parent;
    };
  }
  const b = body.eff;
  return (st) => {
    const f = start(st);
    if (f === null) return els(st);
    const items = f.value as unknown[];
    const n = f.length;
    for (let i = 0; i < n; i++) {
      f.index = i;
      f.value = items[i];
      b(st);
      if (st.out.length > maxOut) throw tooLong();
    }
    st.frame = f.parent;
  };
}

/** Elements of a Set, a Map (entries) or another iterable object; null when not iterable. */
function iterate(c: unknown, maxLoop: number, s: Site): unknown[] | null {
  if (c === null || typeof c !== 'object') return null; // strings, numbers... render the else part
  if (c instanceof Set || c instanceof Map) {
    if (c.size > maxLoop) throw siteError(s, 'limit', `a loop over ${c.size} items exceeds limits.loopIterations (${maxLoop})`);
    return Array.from(c as Iterable<unknown>);
  }
  const it = (c as { [Symbol.iterator]?: unknown })[Symbol.iterator];
  if (typeof it !== 'function') return null;
  const out: unknown[] = [];
  // Bounded: an endless generator stops at the limit instead of hanging.
  for (const x of c as Iterable<unknown>) {
    if (out.length >= maxLoop) throw siteError(s, 'limit', `a loop exceeds limits.loopIterations (${maxLoop})`);
    out.push(x);
  }
  return out;
}

function compileBindings(a: Binding[] | undefined, scope: Scope, env: ExprEnv): ((st: State) => Record<string, unknown>) | null {
  if (a === undefined || a.length === 0) return null;
  const keys = a.map(([k]) => k);
  const values = a.map(([, e]) => compileExpr(e, scope, env).f);
  return (st) => {
    const vars: Record<string, unknown> = Object.create(null);
    for (let i = 0; i < keys.length; i++) vars[keys[i]!] = values[i]!(st);
    return vars;
  };
}

function compileInclude(node: Extract<Node, { t: 'inc' }>, scope: Scope, ctx: Ctx): Eff {
  const link: Link = { target: null };
  ctx.deps.push({ name: node.n, at: node.at, kind: 'include', link });
  const s = site(ctx, node.at, `{{> ${node.n}}}`);
  const { includeDepth: maxDepth, outputSize: maxOut } = ctx.limits;
  const bindings = compileBindings(node.a, scope, ctx.env);
  return (st) => {
    if (++st.depth > maxDepth) throw depthError(s, maxDepth);
    const saved = st.frame;
    const target = link.target;
    if (target === null) throw unlinked(s);
    if (bindings !== null) st.frame = new Frame(saved, null, undefined, 0, bindings(st));
    target.run(st);
    st.frame = saved;
    st.depth--;
    if (st.out.length > maxOut) throw siteError(s, 'limit', `output exceeds limits.outputSize (${maxOut} characters)`);
  };
}

// Only seen in dev mode when a file changes while another render is loading.
function unlinked(s: Site) {
  return siteError(s, 'not-found', 'the view is not loaded yet (it changed during this render); try again');
}

function depthError(s: Site, max: number) {
  return siteError(s, 'limit', `includes and layouts nested more than limits.includeDepth (${max}) deep; does a view include itself?`);
}

function compileLayout(node: Extract<Node, { t: 'lay' }>, scope: Scope, ctx: Ctx): Eff {
  const link: Link = { target: null };
  ctx.deps.push({ name: node.n, at: node.at, kind: 'layout', link, blocks: node.bl.map((b) => ({ name: b.n, at: b.at })) });
  const s = site(ctx, node.at, `{{< ${node.n}}}`);
  const { includeDepth: maxDepth } = ctx.limits;
  const table: Record<string, Eff> = Object.create(null);
  // Blocks are written in the caller's scope and run there, whatever loops the layout is in.
  for (const b of node.bl) table[b.n] = toEff(compileNodes(b.b, scope, ctx));
  const bindings = compileBindings(node.a, scope, ctx.env);
  return (st) => {
    if (++st.depth > maxDepth) throw depthError(s, maxDepth);
    const target = link.target;
    if (target === null) throw unlinked(s);
    const savedFrame = st.frame;
    const savedBlocks = st.blocks;
    st.blocks = { table, frame: savedFrame, outer: savedBlocks } satisfies BlockContext;
    if (bindings !== null) st.frame = new Frame(savedFrame, null, undefined, 0, bindings(st));
    target.run(st);
    st.frame = savedFrame;
    st.blocks = savedBlocks;
    st.depth--;
  };
}

function compileSlot(node: Extract<Node, { t: 'slot' }>, scope: Scope, ctx: Ctx): Eff {
  if (!ctx.slots.includes(node.n)) ctx.slots.push(node.n);
  const fallback = toEff(compileNodes(node.b, scope, ctx));
  const name = node.n;
  return (st) => {
    const b = st.blocks;
    const fill = b === null ? undefined : b.table[name];
    if (fill === undefined) return fallback(st);
    const savedFrame = st.frame;
    st.frame = b!.frame;
    st.blocks = b!.outer;
    fill(st);
    st.frame = savedFrame;
    st.blocks = b;
  };
}
