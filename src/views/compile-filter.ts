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

export function compileFilter(e: Extract<Expr, { k: 'filt' }>, input: Operand, args: readonly Operand[], env: ExprEnv): Operand {
  const def = env.filters.get(e.f);
  if (def === undefined) {
    const known = [...env.filters.keys()].sort().join(', ');
    throw new ViewError({ kind: 'syntax', view: env.view, line: e.at[0], column: e.at[1], reason: `unknown filter '${e.f}' (known: ${known})` });
  }
  const site = { view: env.view, at: e.at, tag: `the filter '${e.f}' at line ${e.at[0]}, column ${e.at[1]}` };
  const failed = (error: unknown): never => {
    if (error instanceof ViewError) throw error;
    throw siteError(site, 'render', 'the filter threw', error);
  };
  const inF = input.f;
  // Each argument's closure, a constant one too: a call evaluates them and allocates nothing.
  const argFs = args.map((a) => (a.constant ? constantOf(a.value) : a.f));
  if ('own' in def) return { f: ownCall(def.own, inF, argFs, failed), constant: false };
  const fn = def.builtin;
  const fallback = env.locale;
  // Once per render: the data's `locale`, else the views' (State.locale is null until asked).
  const localeOf = (st: State): string | undefined => {
    if (st.locale !== null) return st.locale;
    const l = own(st.root, 'locale');
    return (st.locale = typeof l === 'string' ? l : fallback);
  };
  const none: Val = () => undefined;
  const a0 = argFs[0] ?? none;
  const a1 = argFs[1] ?? none;
  return {
    f: (st) => {
      const v = inF(st);
      const x = a0(st);
      const y = a1(st);
      try {
        return fn(v, localeOf(st), x, y);
      } catch (error) {
        return failed(error);
      }
    },
    constant: false,
  };
}

function constantOf(value: unknown): Val {
  return () => value;
}

/** A call of the app's own filter, by the number of arguments the view wrote. */
function ownCall(fn: (value: unknown, ...args: unknown[]) => unknown, inF: Val, argFs: readonly Val[], failed: (error: unknown) => never): Val {
  if (argFs.length === 0) {
    return (st) => {
      const v = inF(st);
      try {
        return fn(v);
      } catch (error) {
        return failed(error);
      }
    };
  }
  if (argFs.length === 1) {
    const a0 = argFs[0]!;
    return (st) => {
      const v = inF(st);
      const x = a0(st);
      try {
        return fn(v, x);
      } catch (error) {
        return failed(error);
      }
    };
  }
  return (st) => {
    const v = inF(st);
    const xs = argFs.map((a) => a(st));
    try {
      return fn(v, ...xs);
    } catch (error) {
      return failed(error);
    }
  };
}
