// The tags that give a view its structure: blocks that open ({{#if}}, {{#each}}, {{#block}},
// {{#slot}}, {{< layout}}), continue ({{else}}, {{else if}}) and close ({{/…}}), and includes
// ({{> view}}). Each reads its tag from the lexer and returns the offset after it.
import type { Binding, Block, Node } from './ast.ts';
import type { Lexer } from './lexer.ts';
import { normalizeName } from './names.ts';
import { describeOpen, Fail, type ParseState } from './parse-state.ts';

const WS = /[ \t\r\n]/;

const REFUSED_LOOP_NAMES: Record<string, true> = Object.assign(Object.create(null), { else: true, new: true, this: true });

/**
 * `{{#name …}}`, with `p` at the `#`.
 *
 * @example
 * if (src.charCodeAt(p) === 35) return openTag(state, start, p, lx);
 */
export function openTag(st: ParseState, start: number, p: number, lx: Lexer): number {
  lx.seek(p + 1);
  const kw = lx.next();
  if (kw.type !== 'name' || kw.start !== p + 1) throw new Fail('expected a block name after {{#', p + 1);
  switch (kw.value) {
    case 'if':
      return openIf(st, start, lx);
    case 'each':
      return openEach(st, start, lx);
    case 'block':
      return openBlock(st, start, lx);
    case 'slot':
      return openSlot(st, start, lx);
    default:
      throw new Fail(`unknown block {{#${kw.value}}} (known: #if, #each, #block, #slot)`, p);
  }
}

function openIf(st: ParseState, start: number, lx: Lexer): number {
  st.checkOutputAllowed(start);
  const e = st.expr(lx);
  st.close(lx);
  const body: Node[] = [];
  const node: Node = { t: 'if', br: [{ e, b: body }], at: st.pos(start) };
  st.top.body.push(node);
  st.push({ kind: 'if', body, node, start, hasElse: false });
  return lx.pos;
}

function openEach(st: ParseState, start: number, lx: Lexer): number {
  st.checkOutputAllowed(start);
  const e = st.expr(lx);
  let as = 'item';
  const t = lx.peek();
  if (t.type === 'name' && t.value === 'as') {
    lx.next();
    const n = lx.next();
    if (n.type !== 'name') throw new Fail('expected a name after "as"', n.start);
    if (['true', 'false', 'null', 'undefined', 'as'].includes(n.value) || n.value in REFUSED_LOOP_NAMES) {
      throw new Fail(`"${n.value}" cannot be a loop variable`, n.start);
    }
    as = n.value;
  }
  st.close(lx);
  const body: Node[] = [];
  const node: Node = { t: 'each', e, as, b: body, at: st.pos(start) };
  st.top.body.push(node);
  st.push({ kind: 'each', body, node, start, hasElse: false });
  return lx.pos;
}

function blockName(lx: Lexer, what: string): string {
  const n = lx.next();
  if (n.type === 'name' || n.type === 'str') return n.value;
  throw new Fail(`expected a ${what} name`, n.start);
}

function openBlock(st: ParseState, start: number, lx: Lexer): number {
  const top = st.top;
  if (top.kind !== 'lay') throw new Fail('{{#block}} must be directly inside a {{< layout}} call', start);
  const name = blockName(lx, 'block');
  st.close(lx);
  const lay = top.node as Extract<Node, { t: 'lay' }>;
  if (lay.bl.some((b) => b.n === name)) throw new Fail(`block "${name}" is given twice`, start);
  const block: Block = { n: name, b: [], at: st.pos(start) };
  lay.bl.push(block);
  st.push({ kind: 'block', body: block.b, node: block, start, hasElse: false });
  return lx.pos;
}

function openSlot(st: ParseState, start: number, lx: Lexer): number {
  st.checkOutputAllowed(start);
  const name = blockName(lx, 'slot');
  st.close(lx);
  const body: Node[] = [];
  const node: Node = { t: 'slot', n: name, b: body, at: st.pos(start) };
  st.top.body.push(node);
  st.push({ kind: 'slot', body, node, start, hasElse: false });
  return lx.pos;
}

/**
 * `{{else}}` or `{{else if …}}`, with the lexer before `else`.
 *
 * @example
 * if (first.type === 'name' && first.value === 'else') return elseTag(state, start, lx);
 */
export function elseTag(st: ParseState, start: number, lx: Lexer): number {
  lx.next(); // else
  const top = st.top;
  const t = lx.peek();
  const elseIf = t.type === 'name' && t.value === 'if';
  if (top.kind !== 'if' && top.kind !== 'each') throw new Fail(`stray {{else}}: no {{#if}} or {{#each}} is open`, start);
  if (top.hasElse) throw new Fail(`{{else}} after {{else}} in ${describeOpen(top)}`, start);
  if (elseIf) {
    if (top.kind !== 'if') throw new Fail('{{else if}} is only allowed in {{#if}}', start);
    lx.next();
    const e = st.expr(lx);
    st.close(lx);
    const body: Node[] = [];
    (top.node as Extract<Node, { t: 'if' }>).br.push({ e, b: body });
    top.body = body;
    return lx.pos;
  }
  st.close(lx);
  const body: Node[] = [];
  (top.node as Extract<Node, { t: 'if' | 'each' }>).el = body;
  top.body = body;
  top.hasElse = true;
  return lx.pos;
}

/**
 * `{{/name}}` (`{{/}}` for a layout call), with `p` at the `/`.
 *
 * @example
 * if (src.charCodeAt(p) === 47) return closeTag(state, start, p, lx);
 */
export function closeTag(st: ParseState, start: number, p: number, lx: Lexer): number {
  lx.seek(p + 1);
  const t = lx.peek();
  let name = '';
  if (t.type === 'name') {
    lx.next();
    name = t.value;
  }
  st.close(lx);
  const top = st.top;
  const expected = top.kind === 'lay' ? '' : top.kind;
  if (top.kind === 'root') {
    throw new Fail(`stray {{/${name}}}: no block is open`, start);
  }
  if (name !== expected) {
    const opened = st.pos(top.start);
    throw new Fail(
      `{{/${name}}} does not close ${describeOpen(top)} opened at line ${opened[0]}, column ${opened[1]}` +
        (top.kind === 'lay' ? ' (a layout call ends with {{/}})' : ''),
      start,
    );
  }
  st.stack.pop();
  return lx.pos;
}

function viewName(st: ParseState, lx: Lexer, p: number, what: string): { name: string; at: number } {
  const src = st.src;
  lx.seek(p);
  const at = lx.skipSpace();
  let name: string;
  const c = src.charCodeAt(at);
  if (c === 39 || c === 34) {
    const t = lx.next();
    name = t.value;
  } else {
    let end = at;
    while (end < src.length && !WS.test(src[end]!) && src[end] !== '}' && !src.startsWith('~}}', end)) end++;
    name = src.slice(at, end);
    lx.seek(end);
    if (name === '') throw new Fail(`expected a view name after {{${what}`, at);
  }
  const n = normalizeName(name);
  if ('reason' in n) throw new Fail(n.reason, at);
  return { name: n.name, at };
}

function bindings(st: ParseState, lx: Lexer): Binding[] | undefined {
  let out: Binding[] | undefined;
  while (true) {
    const t = lx.peek();
    if (t.type !== 'name') break;
    lx.next();
    const eq = lx.next();
    if (eq.type !== 'op' || eq.value !== '=') throw new Fail(`expected = after "${t.value}" (include arguments are name=value)`, eq.start);
    const e = st.expr(lx);
    (out ??= []).push([t.value, e]);
  }
  return out;
}

/**
 * `{{> view name=value…}}`, with `p` at the `>`.
 *
 * @example
 * if (src.charCodeAt(p) === 62) return include(state, start, p, lx);
 */
export function include(st: ParseState, start: number, p: number, lx: Lexer): number {
  st.checkOutputAllowed(start);
  const { name } = viewName(st, lx, p + 1, '>');
  const a = bindings(st, lx);
  st.close(lx);
  const node: Node = { t: 'inc', n: name, at: st.pos(start) };
  if (a !== undefined) node.a = a;
  st.top.body.push(node);
  return lx.pos;
}

/**
 * `{{< layout name=value…}}`, with `p` at the `<`: a layout call, ended by `{{/}}`.
 *
 * @example
 * if (src.charCodeAt(p) === 60) return openLayout(state, start, p, lx);
 */
export function openLayout(st: ParseState, start: number, p: number, lx: Lexer): number {
  st.checkOutputAllowed(start);
  const { name } = viewName(st, lx, p + 1, '<');
  const a = bindings(st, lx);
  st.close(lx);
  const node: Extract<Node, { t: 'lay' }> = { t: 'lay', n: name, bl: [], at: st.pos(start) };
  if (a !== undefined) node.a = a;
  st.top.body.push(node);
  st.push({ kind: 'lay', body: [], node, start, hasElse: false });
  return lx.pos;
}
