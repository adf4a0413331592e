// What the template parser keeps while it reads a view: the source, the stack of open blocks,
// the pending whitespace trim, offsets as line and column, and the failure it throws.
import type { Block, Expr, Node, Pos } from './ast.ts';
import { ExpressionParser } from './expression.ts';
import type { Lexer } from './lexer.ts';

export interface ParseOptions {
  /** Largest accepted source, in characters. */
  templateSize: number;
  /** Deepest nesting of blocks, and of sub-expressions within a tag. */
  nesting: number;
}

export type OpenKind = 'root' | 'if' | 'each' | 'block' | 'slot' | 'lay';

/** A block the parser is inside of. */
export interface Open {
  kind: OpenKind;
  /** Where new nodes go (changes at {{else}}). */
  body: Node[];
  node: Node | Block | null;
  start: number;
  hasElse: boolean;
}

/** A parse failure at an offset; parseView turns it into a ViewError with line and column. */
export class Fail {
  constructor(
    readonly reason: string,
    readonly at: number,
    readonly kind: 'syntax' | 'limit' = 'syntax',
  ) {}
}

/**
 * The parser's state, and the steps every tag shares: closing a tag, reading an expression,
 * opening a block within the nesting limit.
 *
 * @example
 * class TemplateParser extends ParseState { … }
 */
export class ParseState {
  private lineStarts: number[] | null = null;
  readonly stack: Open[] = [];
  /** Trim the leading whitespace of the next text (a `~}}` was seen). */
  trimNext = false;

  constructor(
    readonly src: string,
    readonly options: ParseOptions,
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

  get top(): Open {
    return this.stack[this.stack.length - 1]!;
  }

  checkOutputAllowed(start: number): void {
    if (this.top.kind === 'lay') throw new Fail('only {{#block}} tags may appear directly inside a {{< layout}} call', start);
  }

  close(lx: Lexer): void {
    const t = lx.next();
    if (t.type !== 'close') {
      throw new Fail(t.type === 'eof' ? 'unterminated tag: expected }}' : `unexpected ${describeToken(t.value, t.type)}, expected }}`, t.start);
    }
    this.trimNext = t.value === '~';
  }

  expr(lx: Lexer): Expr {
    return new ExpressionParser(lx, this.options.nesting, (offset) => this.pos(offset)).parse();
  }

  push(open: Open): void {
    // `root` is on the stack too, hence the + 1.
    if (this.stack.length > this.options.nesting) {
      throw new Fail(`blocks nested more than ${this.options.nesting} levels deep`, open.start, 'limit');
    }
    this.stack.push(open);
  }
}

export function describeOpen(open: Open): string {
  switch (open.kind) {
    case 'lay':
      return '{{< layout}}';
    case 'root':
      return 'the view';
    default:
      return `{{#${open.kind}}}`;
  }
}

export function describeToken(value: string, type: string): string {
  if (type === 'str') return 'string';
  if (type === 'num') return `number ${value}`;
  return `'${value}'`;
}
