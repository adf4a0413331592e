// A filter node -> a closure: the filter is found when the view is compiled, so a render calls it
// directly, and an unknown name is a compile error at the filter's line and column.
import type { Expr } from './ast.ts';
import { ViewError } from './errors.ts';
import type { FilterDef } from './filters.ts';
import { own, type State, siteError, type Val } from './runtime.ts';

/** A compiled operand: its closure, and its value when known at compile time (compile-expr's CExpr). */
interface Operand {
  f: Val;
  constant: boolean;
  value?: unknown;
}

/** What compiling an expression needs beyond its scope: the filters, and where errors point. */
export interface ExprEnv {
  filters: ReadonlyMap<string, FilterDef>;
  view: string;
  /** The views' default locale for `date` and `number`; a render's data may name its own (`locale`). */
  locale: string | undefined;
}

const NO_ARGS: readonly unknown[] = Object.freeze([]);

export function compileFilter(e: Extract<Expr, { k: 'filt' }>, input: Operand, args: readonly Operand[], env: ExprEnv): Operand {
  const def = env.filters.get(e.f);
  if (def === undefined) {
    const known = [...env.filters.keys()].sort().join(', ');
    throw new ViewError({ kind: 'syntax', view: env.view, line: e.at[0], column: e.at[1], reason: `unknown filter '${e.f}' (known: ${known})` });
  }
  const fn = def.fn;
  const inF = input.f;
  const fallback = env.locale;
  const site = { view: env.view, at: e.at, tag: `the filter '${e.f}' at line ${e.at[0]}, column ${e.at[1]}` };
  const localeOf = (st: State): string | undefined => {
    const l = own(st.root, 'locale');
    return typeof l === 'string' ? l : fallback;
  };
  const call = (value: unknown, st: State, values: readonly unknown[]): unknown => {
    try {
      return fn(value, localeOf(st), values);
    } catch (error) {
      if (error instanceof ViewError) throw error;
      throw siteError(site, 'render', 'the filter threw', error);
    }
  };
  if (args.every((a) => a.constant)) {
    const values = args.length === 0 ? NO_ARGS : Object.freeze(args.map((a) => a.value));
    return { f: (st) => call(inF(st), st, values), constant: false };
  }
  const argFs = args.map((a) => a.f);
  return {
    f: (st) =>
      call(
        inF(st),
        st,
        argFs.map((f) => f(st)),
      ),
    constant: false,
  };
}
