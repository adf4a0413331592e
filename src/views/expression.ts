import type { BinaryOp, Expr, MetaName, Pos } from './ast.ts';
import { LexError, type Lexer, type Token } from './lexer.ts';

export class ExprError {
  constructor(
    readonly reason: string,
    readonly at: number,
    readonly kind: 'syntax' | 'limit' = 'syntax',
  ) {}
}

const META: ReadonlySet<string> = new Set<MetaName>(['index', 'first', 'last', 'length']);

// Null prototype: a name like `constructor` must not find Object's.
const REFUSED_WORDS: Record<string, string> = Object.assign(Object.create(null), {
  new: "'new' is not allowed in views",
  function: 'functions are not allowed in views',
  class: 'classes are not allowed in views',
  typeof: "'typeof' is not supported in views",
  void: "'void' is not supported in views",
  delete: "'delete' is not allowed in views",
  await: "'await' is not allowed in views",
  yield: "'yield' is not allowed in views",
  import: "'import' is not allowed in views",
  this: "'this' is not supported in views; name the value instead",
  in: "'in' is not supported in views",
  instanceof: "'instanceof' is not supported in views",
});

const ASSIGNMENTS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '??=', '||=', '&&=', '++', '--']);

// Binary levels, loosest first (the conditional operator sits above them).
const LEVELS: readonly (readonly string[])[] = [['??'], ['||'], ['&&'], ['==', '!=', '===', '!=='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%']];

/**
 * Recursive descent over the tokens of one tag. `maxDepth` bounds both the
 * recursion and the depth of the resulting tree, so neither this parser nor
 * the compiled closures can exhaust the stack.
 */
export class ExpressionParser {
  private depth = 0;
  /** Tree depth of the node returned last. */
  private d = 0;

  constructor(
    private readonly lx: Lexer,
    private readonly maxDepth: number,
    /** The line and column of a source offset, kept on filter nodes for compile-time errors. */
    private readonly posOf: (offset: number) => Pos,
  ) {}

  parse(): Expr {
    try {
      return this.pipe();
    } catch (e) {
      if (e instanceof LexError) throw new ExprError(e.reason, e.at);
      throw e;
    }
  }

  private enter(at: number): void {
    if (++this.depth > this.maxDepth) {
      throw new ExprError(`expression nested more than ${this.maxDepth} levels deep`, at, 'limit');
    }
  }

  private deepen(d: number, at: number): number {
    if (d > this.maxDepth) throw new ExprError(`expression nested more than ${this.maxDepth} levels deep`, at, 'limit');
    return d;
  }

  /** `expr | name | name(arg, …)`: filters, applied left to right, loosest of all. */
  private pipe(): Expr {
    let node = this.conditional();
    let d = this.d;
    while (true) {
      const bar = this.lx.peek();
      if (bar.type !== 'op' || bar.value !== '|') break;
      this.lx.next();
      const name = this.lx.next();
      if (name.type !== 'name') throw new ExprError("expected a filter name after '|'", name.start);
      const filter: Expr = { k: 'filt', f: name.value, a: node, at: this.posOf(name.start) };
      const open = this.lx.peek();
      if (open.type === 'op' && open.value === '(') {
        this.lx.next();
        this.enter(open.start);
        const args: Expr[] = [];
        if (!(this.lx.peek().type === 'op' && this.lx.peek().value === ')')) {
          do {
            args.push(this.conditional());
            d = Math.max(d, this.d);
          } while (this.accept(','));
        }
        this.expect(')', "expected ')' after the filter's arguments");
        this.depth--;
        filter.x = args;
      }
      d = this.deepen(d + 1, bar.start);
      node = filter;
    }
    this.d = d;
    return node;
  }

  private accept(op: string): boolean {
    const t = this.lx.peek();
    if (t.type !== 'op' || t.value !== op) return false;
    this.lx.next();
    return true;
  }

  private conditional(): Expr {
    const start = this.lx.peek().start;
    this.enter(start);
    const test = this.binary(0);
    let result = test;
    let d = this.d;
    const t = this.lx.peek();
    if (t.type === 'op' && t.value === '?') {
      this.lx.next();
      const a = this.conditional();
      const da = this.d;
      this.expect(':', 'expected : in a conditional (c ? x : y)');
      const b = this.conditional();
      d = this.deepen(Math.max(d, da, this.d) + 1, t.start);
      result = { k: 'cond', t: test, a, b };
    }
    this.checkAssignment();
    this.depth--;
    this.d = d;
    return result;
  }

  private binary(level: number): Expr {
    if (level === LEVELS.length) return this.unary();
    const ops = LEVELS[level]!;
    let left = this.binary(level + 1);
    let d = this.d;
    while (true) {
      const t = this.lx.peek();
      if (t.type !== 'op' || !ops.includes(t.value)) break;
      this.lx.next();
      const right = this.binary(level + 1);
      d = this.deepen(Math.max(d, this.d) + 1, t.start);
      left = { k: 'bin', op: t.value as BinaryOp, a: left, b: right };
    }
    this.d = d;
    return left;
  }

  private unary(): Expr {
    const t = this.lx.peek();
    if (t.type === 'op' && (t.value === '!' || t.value === '-' || t.value === '+')) {
      this.lx.next();
      this.enter(t.start);
      const a = this.unary();
      this.depth--;
      this.d = this.deepen(this.d + 1, t.start);
      return { k: 'un', op: t.value, a };
    }
    if (t.type === 'op' && (t.value === '++' || t.value === '--')) {
      throw new ExprError('assignment is not allowed in views', t.start);
    }
    return this.postfix();
  }

  private postfix(): Expr {
    let node = this.primary();
    let d = this.d;
    while (true) {
      const t = this.lx.peek();
      if (t.type !== 'op') break;
      if (t.value === '.' || t.value === '?.') {
        this.lx.next();
        const p = this.lx.peek();
        if (p.type === 'op' && p.value === '[' && t.value === '?.') {
          this.lx.next();
          node = this.index(node, p);
        } else if (p.type === 'name' || (p.type === 'num' && /^[0-9]+$/.test(p.value))) {
          this.lx.next();
          node = { k: 'get', o: node, p: p.value };
          this.d = 0;
        } else {
          throw new ExprError(`expected a property name after '${t.value}'`, p.start);
        }
      } else if (t.value === '[') {
        this.lx.next();
        node = this.index(node, t);
      } else if (t.value === '(') {
        throw new ExprError('function and method calls are not allowed in views', t.start);
      } else {
        break;
      }
      d = this.deepen(Math.max(d, this.d) + 1, t.start);
    }
    this.d = d;
    return node;
  }

  private index(object: Expr, open: Token): Expr {
    this.enter(open.start);
    const i = this.conditional();
    this.expect(']', "expected ']'");
    this.depth--;
    return { k: 'idx', o: object, i };
  }

  private primary(): Expr {
    const t = this.lx.next();
    this.d = 1;
    switch (t.type) {
      case 'num':
        return { k: 'num', v: t.value };
      case 'str':
        return { k: 'lit', v: t.value };
      case 'meta':
        if (!META.has(t.value)) {
          throw new ExprError(`unknown loop value @${t.value} (known: @index, @first, @last, @length)`, t.start);
        }
        return { k: 'meta', n: t.value as MetaName };
      case 'name': {
        switch (t.value) {
          case 'true':
            return { k: 'lit', v: true };
          case 'false':
            return { k: 'lit', v: false };
          case 'null':
            return { k: 'lit', v: null };
          case 'undefined':
            return { k: 'lit' };
        }
        const refused = REFUSED_WORDS[t.value];
        if (refused !== undefined) throw new ExprError(refused, t.start);
        const after = this.lx.peek();
        if (after.type === 'op' && after.value === '=>') throw new ExprError('functions are not allowed in views', after.start);
        return { k: 'name', n: t.value };
      }
      case 'op':
        if (t.value === '(') {
          this.enter(t.start);
          const inner = this.pipe();
          this.expect(')', "expected ')'");
          this.depth--;
          return inner;
        }
        if (ASSIGNMENTS.has(t.value)) throw new ExprError('assignment is not allowed in views', t.start);
        throw new ExprError(`unexpected '${t.value}'`, t.start);
      case 'close':
      case 'eof':
        throw new ExprError('expected an expression', t.start);
    }
  }

  private checkAssignment(): void {
    const t = this.lx.peek();
    if (t.type === 'op' && ASSIGNMENTS.has(t.value)) throw new ExprError('assignment is not allowed in views', t.start);
    if (t.type === 'op' && t.value === '=>') throw new ExprError('functions are not allowed in views', t.start);
  }

  private expect(op: string, reason: string): void {
    const t = this.lx.next();
    if (t.type !== 'op' || t.value !== op) throw new ExprError(reason, t.start);
  }
}
