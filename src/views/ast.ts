/**
 * The pre-parsed form of a view. Plain JSON (short keys, no undefined values
 * that matter), so that `build:views` can write it into a module and the
 * edge runtimes compile it to closures without reading files.
 */

/** [line, column], both 1-based. */
export type Pos = [number, number];

export type BinaryOp = '??' | '||' | '&&' | '==' | '!=' | '===' | '!==' | '<' | '>' | '<=' | '>=' | '+' | '-' | '*' | '/' | '%';

export type MetaName = 'index' | 'first' | 'last' | 'length';

export type Expr =
  /** A literal; `v` absent means `undefined`. */
  | { k: 'lit'; v?: string | boolean | null }
  /** A number literal kept as its source text (JSON has no Infinity). */
  | { k: 'num'; v: string }
  | { k: 'name'; n: string }
  | { k: 'meta'; n: MetaName }
  /** `o.p` or `o?.p` (both are null-safe). */
  | { k: 'get'; o: Expr; p: string }
  /** `o[i]` or `o?.[i]`. */
  | { k: 'idx'; o: Expr; i: Expr }
  | { k: 'un'; op: '!' | '-' | '+'; a: Expr }
  | { k: 'bin'; op: BinaryOp; a: Expr; b: Expr }
  | { k: 'cond'; t: Expr; a: Expr; b: Expr }
  /** `a | f(x…)`: the filter `f` applied to `a`, with its arguments; `at` is where its name is. */
  | { k: 'filt'; f: string; a: Expr; x?: Expr[]; at: Pos };

export type Binding = [name: string, value: Expr];

export interface Block {
  n: string;
  b: Node[];
  at: Pos;
}

export type Node =
  | { t: 'text'; v: string }
  | { t: 'out'; e: Expr; raw?: 1; at: Pos }
  | { t: 'if'; br: { e: Expr; b: Node[] }[]; el?: Node[]; at: Pos }
  | { t: 'each'; e: Expr; as: string; b: Node[]; el?: Node[]; at: Pos }
  | { t: 'inc'; n: string; a?: Binding[]; at: Pos }
  | { t: 'lay'; n: string; a?: Binding[]; bl: Block[]; at: Pos }
  | { t: 'slot'; n: string; b: Node[]; at: Pos };

export interface ViewAst {
  v: 1;
  body: Node[];
}

/** The module written by `build:views`: every view of a directory, pre-parsed. */
export interface CompiledViews {
  format: string; // 'rove-views'
  version: number; // 1
  ext?: string;
  views: Record<string, unknown>; // name -> ViewAst
}

export const COMPILED_FORMAT = 'rove-views';
export const COMPILED_VERSION = 1;
