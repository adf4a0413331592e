/**
 * Tokens inside a tag. The lexer runs over the whole template source from a
 * position, so a string literal may contain `}}` and the tag ends at the
 * first `}}` outside strings.
 */

export type TokenType = 'num' | 'str' | 'name' | 'meta' | 'op' | 'close' | 'eof';

export interface Token {
  type: TokenType;
  /** Decoded value: the string's content, the name, the operator. For 'close': '~' when trimming. */
  value: string;
  start: number;
  end: number;
}

export class LexError {
  constructor(
    readonly reason: string,
    readonly at: number,
  ) {}
}

const IDENT = /[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*/uy;
const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

// Longest first. Assignment-like and arrow operators are lexed only so the
// parser can say precisely why they are refused.
const OPERATORS = [
  '===',
  '!==',
  '??=',
  '||=',
  '&&=',
  '...',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '=>',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '**',
  '(',
  ')',
  '[',
  ']',
  '.',
  '?',
  ':',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '!',
  '=',
  ',',
  // The filter pipe (`value | upper`); `||` and `||=` are matched before it.
  '|',
];

const ESCAPES: Record<string, string> = Object.assign(Object.create(null), { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' });

export class Lexer {
  pos: number;
  private peeked: Token | null = null;

  constructor(
    readonly src: string,
    pos: number,
  ) {
    this.pos = pos;
  }

  peek(): Token {
    if (this.peeked === null) this.peeked = this.read();
    return this.peeked;
  }

  next(): Token {
    const t = this.peek();
    this.peeked = null;
    return t;
  }

  /** Position after skipping whitespace; used by the tag parser for raw scans. */
  skipSpace(): number {
    if (this.peeked !== null) return this.peeked.start;
    const src = this.src;
    let p = this.pos;
    while (p < src.length) {
      const c = src.charCodeAt(p);
      if (c === 32 || c === 9 || c === 10 || c === 13) p++;
      else break;
    }
    this.pos = p;
    return p;
  }

  /** Re-position the lexer (after a raw scan by the tag parser). */
  seek(pos: number): void {
    this.pos = pos;
    this.peeked = null;
  }

  private read(): Token {
    const src = this.src;
    const start = this.skipSpace();
    if (start >= src.length) return { type: 'eof', value: '', start, end: start };
    const c = src.charCodeAt(start);

    if (c === 126 /* ~ */ && src.startsWith('}}', start + 1)) {
      this.pos = start + 3;
      return { type: 'close', value: '~', start, end: this.pos };
    }
    if (c === 125 /* } */ && src.charCodeAt(start + 1) === 125) {
      this.pos = start + 2;
      return { type: 'close', value: '', start, end: this.pos };
    }
    if (c === 39 || c === 34) return this.readString(start, c);
    if (c >= 48 && c <= 57) {
      NUMBER.lastIndex = start;
      const m = NUMBER.exec(src)!;
      const end = start + m[0].length;
      IDENT.lastIndex = end;
      if (end < src.length && (IDENT.test(src) || (src.charCodeAt(end) >= 48 && src.charCodeAt(end) <= 57))) {
        throw new LexError('invalid number', start);
      }
      this.pos = end;
      return { type: 'num', value: m[0], start, end };
    }
    if (c === 64 /* @ */) {
      IDENT.lastIndex = start + 1;
      const m = IDENT.exec(src);
      if (m === null) throw new LexError("'@' must be followed by a name", start);
      this.pos = start + 1 + m[0].length;
      return { type: 'meta', value: m[0], start, end: this.pos };
    }
    IDENT.lastIndex = start;
    const id = IDENT.exec(src);
    if (id !== null) {
      this.pos = start + id[0].length;
      return { type: 'name', value: id[0], start, end: this.pos };
    }
    for (const op of OPERATORS) {
      if (src.startsWith(op, start)) {
        this.pos = start + op.length;
        return { type: 'op', value: op, start, end: this.pos };
      }
    }
    if (c === 96 /* ` */) throw new LexError('template literals are not allowed', start);
    const ch = String.fromCodePoint(src.codePointAt(start)!);
    throw new LexError(`unexpected character ${JSON.stringify(ch)}`, start);
  }

  private readString(start: number, quote: number): Token {
    const src = this.src;
    let p = start + 1;
    let out = '';
    let chunk = p;
    while (true) {
      if (p >= src.length) throw new LexError('unterminated string', start);
      const c = src.charCodeAt(p);
      if (c === quote) break;
      // A string may not span lines: an unclosed quote is reported where it starts
      // instead of swallowing the rest of the template.
      if (c === 10 || c === 13) throw new LexError('unterminated string', start);
      if (c === 92 /* \ */) {
        out += src.slice(chunk, p);
        const e = src[p + 1];
        const decoded = e === undefined ? undefined : ESCAPES[e];
        if (decoded === undefined) {
          if (e === undefined || e === '\n' || e === '\r') throw new LexError('unterminated string', start);
          throw new LexError(`unknown escape \\${e} (allowed: \\n \\t \\r \\\\ \\' \\")`, p);
        }
        out += decoded;
        p += 2;
        chunk = p;
        continue;
      }
      p++;
    }
    out += src.slice(chunk, p);
    this.pos = p + 1;
    return { type: 'str', value: out, start, end: this.pos };
  }
}
