import type { Binding, Block, Node, Pos, ViewAst } from './ast.ts';
import { ViewError } from './errors.ts';
import { ExprError, ExpressionParser } from './expression.ts';
import { LexError, Lexer } from './lexer.ts';
import { normalizeName } from './names.ts';

export interface ParseOptions {
  /** Largest accepted source, in characters. */
  templateSize: number;
  /** Deepest nesting of blocks, and of sub-expressions within a tag. */
  nesting: number;
}

type OpenKind = 'root' | 'if' | 'each' | 'block' | 'slot' | 'lay';

interface Open {
  kind: OpenKind;
  /** Where new nodes go (changes at {{else}}). */
  body: Node[];
  node: Node | Block | null;
  start: number;
  hasElse: boolean;
}

class Fail {
  constructor(
    readonly reason: string,
    readonly at: number,
    readonly kind: 'syntax' | 'limit' = 'syntax',
  ) {}
}

const WS = /[ \t\r\n]/;

/** Parses a view source into its AST. Throws only ViewError. */
export function parseView(source: string, view: string, options: ParseOptions): ViewAst {
  if (source.length > options.templateSize) {
    throw new ViewError({
      kind: 'limit',
      view,
      reason: `template is ${source.length} characters, over the limit of ${options.templateSize} (limits.templateSize)`,
    });
  }
  const parser = new TemplateParser(source, options);
  try {
    return parser.parse();
  } catch (e) {
    let fail: Fail | undefined;
    if (e instanceof Fail) fail = e;
    else if (e instanceof ExprError) fail = new Fail(e.reason, e.at, e.kind);
    else if (e instanceof LexError) fail = new Fail(e.reason, e.at);
    if (fail === undefined) throw e;
    const [line, column] = parser.pos(fail.at);
    throw new ViewError({ kind: fail.kind, view, reason: fail.reason, line, column, source });
  }
}

class TemplateParser {
  private lineStarts: number[] | null = null;
  private readonly stack: Open[] = [];
  /** Trim the leading whitespace of the next text (a `~}}` was seen). */
  private trimNext = false;

  constructor(
    private readonly src: string,
    private readonly options: ParseOptions,
  ) {}

  /** Line and column (1-based) of an offset. */
  pos(offset: number): Pos {
    if (this.lineStarts === null) {
      const starts = [0];
      let i = -1;
      while ((i = this.src.indexOf('\n', i + 1)) >= 0) starts.push(i + 1);
      this.lineStarts = starts;
    }
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, offset - starts[lo]! + 1];
  }

  parse(): ViewAst {
    const src = this.src;
    const root: Node[] = [];
    this.stack.push({ kind: 'root', body: root, node: null, start: 0, hasElse: false });
    let p = 0;
    while (p < src.length) {
      const open = src.indexOf('{{', p);
      if (open < 0) {
        this.text(p, src.length, false);
        break;
      }
      const trimBefore = src.charCodeAt(open + 2) === 126 /* ~ */ || (src.charCodeAt(open + 2) === 123 /* { */ && src.charCodeAt(open + 3) === 126);
      this.text(p, open, trimBefore);
      p = this.tag(open);
    }
    const top = this.stack[this.stack.length - 1]!;
    if (top.kind !== 'root') throw new Fail(`unclosed ${describeOpen(top)}`, top.start);
    return { v: 1, body: root };
  }

  private get top(): Open {
    return this.stack[this.stack.length - 1]!;
  }

  private text(from: number, to: number, trimEnd: boolean): void {
    let s = this.src.slice(from, to);
    if (this.trimNext) {
      s = s.replace(/^[ \t\r\n]+/, '');
      this.trimNext = false;
    }
    if (trimEnd) s = s.replace(/[ \t\r\n]+$/, '');
    if (s === '') return;
    const top = this.top;
    if (top.kind === 'lay') {
      const i = this.src.slice(from, to).search(/[^ \t\r\n]/);
      if (i >= 0) throw new Fail('only {{#block}} tags may appear directly inside a {{< layout}} call', from + i);
      return;
    }
    const body = top.body;
    const last = body[body.length - 1];
    // Text split by comments is merged back into one node.
    if (last !== undefined && last.t === 'text') last.v += s;
    else body.push({ t: 'text', v: s });
  }

  /** Parses the tag at `start` (pointing at `{{`); returns the offset after it. */
  private tag(start: number): number {
    const src = this.src;
    let p = start + 2;
    const raw = src.charCodeAt(p) === 123;
    if (raw) p++;
    if (src.charCodeAt(p) === 126) p++; // `~`, handled by the caller
    if (!raw && src.charCodeAt(p) === 33 /* ! */) return this.comment(start, p + 1);
    const lx = new Lexer(src, p);
    try {
      return raw ? this.rawOutput(start, lx) : this.statement(start, lx);
    } catch (e) {
      // When the tag has no end, say so rather than report whatever text followed it.
      if ((e instanceof ExprError || e instanceof LexError || e instanceof Fail) && !/unterminated string/.test(e.reason)) {
        const close = src.indexOf('}}', p);
        const next = src.indexOf('{{', p);
        if (close < 0 || (next >= 0 && next < close)) {
          throw new Fail(raw ? 'unterminated tag: expected }}}' : 'unterminated tag: expected }}', start);
        }
      }
      throw e;
    }
  }

  private comment(start: number, p: number): number {
    const src = this.src;
    let end: number;
    if (src.startsWith('--', p)) {
      const re = /--(~?)\}\}/g;
      re.lastIndex = p + 2;
      const m = re.exec(src);
      if (m === null) throw new Fail('unterminated comment: expected --}}', start);
      end = m.index + m[0].length;
      this.trimNext = m[1] === '~';
    } else {
      const i = src.indexOf('}}', p);
      if (i < 0) throw new Fail('unterminated comment: expected }}', start);
      end = i + 2;
      this.trimNext = src.charCodeAt(i - 1) === 126 && i - 1 >= p;
    }
    return end;
  }

  private rawOutput(start: number, lx: Lexer): number {
    this.checkOutputAllowed(start);
    const e = new ExpressionParser(lx, this.options.nesting).parse();
    const close = lx.next();
    if (close.type !== 'close' || this.src.charCodeAt(close.end) !== 125) {
      throw new Fail(
        close.type === 'close'
          ? 'unterminated tag: expected }}} to end a {{{ raw }}} tag'
          : `unexpected ${describeToken(close.value, close.type)}, expected }}}`,
        close.type === 'close' ? start : close.start,
      );
    }
    this.trimNext = close.value === '~';
    this.top.body.push({ t: 'out', e, raw: 1, at: this.pos(start) });
    return close.end + 1;
  }

  private statement(start: number, lx: Lexer): number {
    const src = this.src;
    const p = lx.skipSpace();
    const c = src.charCodeAt(p);
    if (c === 35 /* # */) {
      lx.seek(p + 1);
      const kw = lx.next();
      if (kw.type !== 'name' || kw.start !== p + 1) throw new Fail('expected a block name after {{#', p + 1);
      switch (kw.value) {
        case 'if':
          return this.openIf(start, lx);
        case 'each':
          return this.openEach(start, lx);
        case 'block':
          return this.openBlock(start, lx);
        case 'slot':
          return this.openSlot(start, lx);
        default:
          throw new Fail(`unknown block {{#${kw.value}}} (known: #if, #each, #block, #slot)`, p);
      }
    }
    if (c === 47 /* / */) return this.closeBlock(start, p, lx);
    if (c === 62 /* > */) return this.include(start, p, lx);
    if (c === 60 /* < */) return this.openLayout(start, p, lx);
    const first = lx.peek();
    if (first.type === 'name' && first.value === 'else') return this.elseTag(start, lx);
    // {{ expr }}
    this.checkOutputAllowed(start);
    const e = new ExpressionParser(lx, this.options.nesting).parse();
    this.close(lx);
    this.top.body.push({ t: 'out', e, at: this.pos(start) });
    return lx.pos;
  }

  private checkOutputAllowed(start: number): void {
    if (this.top.kind === 'lay') throw new Fail('only {{#block}} tags may appear directly inside a {{< layout}} call', start);
  }

  private close(lx: Lexer): void {
    const t = lx.next();
    if (t.type !== 'close') {
      throw new Fail(t.type === 'eof' ? 'unterminated tag: expected }}' : `unexpected ${describeToken(t.value, t.type)}, expected }}`, t.start);
    }
    this.trimNext = t.value === '~';
  }

  private expr(lx: Lexer) {
    return new ExpressionParser(lx, this.options.nesting).parse();
  }

  private push(open: Open): void {
    // `root` is on the stack too, hence the + 1.
    if (this.stack.length > this.options.nesting) {
      throw new Fail(`blocks nested more than ${this.options.nesting} levels deep`, open.start, 'limit');
    }
    this.stack.push(open);
  }

  private openIf(start: number, lx: Lexer): number {
    this.checkOutputAllowed(start);
    const e = this.expr(lx);
    this.close(lx);
    const body: Node[] = [];
    const node: Node = { t: 'if', br: [{ e, b: body }], at: this.pos(start) };
    this.top.body.push(node);
    this.push({ kind: 'if', body, node, start, hasElse: false });
    return lx.pos;
  }

  private openEach(start: number, lx: Lexer): number {
    this.checkOutputAllowed(start);
    const e = this.expr(lx);
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
    this.close(lx);
    const body: Node[] = [];
    const node: Node = { t: 'each', e, as, b: body, at: this.pos(start) };
    this.top.body.push(node);
    this.push({ kind: 'each', body, node, start, hasElse: false });
    return lx.pos;
  }

  private blockName(lx: Lexer, what: string): string {
    const n = lx.next();
    if (n.type === 'name' || n.type === 'str') return n.value;
    throw new Fail(`expected a ${what} name`, n.start);
  }

  private openBlock(start: number, lx: Lexer): number {
    const top = this.top;
    if (top.kind !== 'lay') throw new Fail('{{#block}} must be directly inside a {{< layout}} call', start);
    const name = this.blockName(lx, 'block');
    this.close(lx);
    const lay = top.node as Extract<Node, { t: 'lay' }>;
    if (lay.bl.some((b) => b.n === name)) throw new Fail(`block "${name}" is given twice`, start);
    const block: Block = { n: name, b: [], at: this.pos(start) };
    lay.bl.push(block);
    this.push({ kind: 'block', body: block.b, node: block, start, hasElse: false });
    return lx.pos;
  }

  private openSlot(start: number, lx: Lexer): number {
    this.checkOutputAllowed(start);
    const name = this.blockName(lx, 'slot');
    this.close(lx);
    const body: Node[] = [];
    const node: Node = { t: 'slot', n: name, b: body, at: this.pos(start) };
    this.top.body.push(node);
    this.push({ kind: 'slot', body, node, start, hasElse: false });
    return lx.pos;
  }

  private elseTag(start: number, lx: Lexer): number {
    lx.next(); // else
    const top = this.top;
    const t = lx.peek();
    const elseIf = t.type === 'name' && t.value === 'if';
    if (top.kind !== 'if' && top.kind !== 'each') throw new Fail(`stray {{else}}: no {{#if}} or {{#each}} is open`, start);
    if (top.hasElse) throw new Fail(`{{else}} after {{else}} in ${describeOpen(top)}`, start);
    if (elseIf) {
      if (top.kind !== 'if') throw new Fail('{{else if}} is only allowed in {{#if}}', start);
      lx.next();
      const e = this.expr(lx);
      this.close(lx);
      const body: Node[] = [];
      (top.node as Extract<Node, { t: 'if' }>).br.push({ e, b: body });
      top.body = body;
      return lx.pos;
    }
    this.close(lx);
    const body: Node[] = [];
    (top.node as Extract<Node, { t: 'if' | 'each' }>).el = body;
    top.body = body;
    top.hasElse = true;
    return lx.pos;
  }

  private closeBlock(start: number, p: number, lx: Lexer): number {
    lx.seek(p + 1);
    const t = lx.peek();
    let name = '';
    if (t.type === 'name') {
      lx.next();
      name = t.value;
    }
    this.close(lx);
    const top = this.top;
    const expected = top.kind === 'lay' ? '' : top.kind;
    if (top.kind === 'root') {
      throw new Fail(`stray {{/${name}}}: no block is open`, start);
    }
    if (name !== expected) {
      const opened = this.pos(top.start);
      throw new Fail(
        `{{/${name}}} does not close ${describeOpen(top)} opened at line ${opened[0]}, column ${opened[1]}` +
          (top.kind === 'lay' ? ' (a layout call ends with {{/}})' : ''),
        start,
      );
    }
    this.stack.pop();
    return lx.pos;
  }

  private viewName(lx: Lexer, p: number, what: string): { name: string; at: number } {
    const src = this.src;
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

  private bindings(lx: Lexer): Binding[] | undefined {
    let out: Binding[] | undefined;
    while (true) {
      const t = lx.peek();
      if (t.type !== 'name') break;
      lx.next();
      const eq = lx.next();
      if (eq.type !== 'op' || eq.value !== '=') throw new Fail(`expected = after "${t.value}" (include arguments are name=value)`, eq.start);
      const e = this.expr(lx);
      (out ??= []).push([t.value, e]);
    }
    return out;
  }

  private include(start: number, p: number, lx: Lexer): number {
    this.checkOutputAllowed(start);
    const { name } = this.viewName(lx, p + 1, '>');
    const a = this.bindings(lx);
    this.close(lx);
    const node: Node = { t: 'inc', n: name, at: this.pos(start) };
    if (a !== undefined) node.a = a;
    this.top.body.push(node);
    return lx.pos;
  }

  private openLayout(start: number, p: number, lx: Lexer): number {
    this.checkOutputAllowed(start);
    const { name } = this.viewName(lx, p + 1, '<');
    const a = this.bindings(lx);
    this.close(lx);
    const node: Extract<Node, { t: 'lay' }> = { t: 'lay', n: name, bl: [], at: this.pos(start) };
    if (a !== undefined) node.a = a;
    this.top.body.push(node);
    this.push({ kind: 'lay', body: [], node, start, hasElse: false });
    return lx.pos;
  }
}

const REFUSED_LOOP_NAMES: Record<string, true> = Object.assign(Object.create(null), { else: true, new: true, this: true });

function describeOpen(open: Open): string {
  switch (open.kind) {
    case 'lay':
      return '{{< layout}}';
    case 'root':
      return 'the view';
    default:
      return `{{#${open.kind}}}`;
  }
}

function describeToken(value: string, type: string): string {
  if (type === 'str') return 'string';
  if (type === 'num') return `number ${value}`;
  return `'${value}'`;
}
