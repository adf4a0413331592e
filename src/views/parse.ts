// The template parser: the view's text and tags read into its AST. This file scans the source
// and reads text, comments and output tags; the structural tags are in parse-blocks.ts.
import type { Node, ViewAst } from './ast.ts';
import { ViewError } from './errors.ts';
import { ExprError, ExpressionParser } from './expression.ts';
import { LexError, Lexer } from './lexer.ts';
import { closeTag, elseTag, include, openLayout, openTag } from './parse-blocks.ts';
import { describeOpen, describeToken, Fail, type ParseOptions, ParseState } from './parse-state.ts';

export type { ParseOptions } from './parse-state.ts';

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

class TemplateParser extends ParseState {
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
    const e = new ExpressionParser(lx, this.options.nesting, (offset) => this.pos(offset)).parse();
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
    if (c === 35 /* # */) return openTag(this, start, p, lx);
    if (c === 47 /* / */) return closeTag(this, start, p, lx);
    if (c === 62 /* > */) return include(this, start, p, lx);
    if (c === 60 /* < */) return openLayout(this, start, p, lx);
    const first = lx.peek();
    if (first.type === 'name' && first.value === 'else') return elseTag(this, start, lx);
    // {{ expr }}
    this.checkOutputAllowed(start);
    const e = new ExpressionParser(lx, this.options.nesting, (offset) => this.pos(offset)).parse();
    this.close(lx);
    this.top.body.push({ t: 'out', e, at: this.pos(start) });
    return lx.pos;
  }
}
