// Expressions of the template language -> closures, folded at compile time where constant.
import type { Expr } from './ast.ts';
import { compileFilter, type ExprEnv } from './compile-filter.ts';
import { hasOwn, innermostLoop, lookupFree, type Val } from './runtime.ts';

export type { ExprEnv } from './compile-filter.ts';

/** The loop variables in scope, innermost last. */
export type Scope = readonly string[];

/** A compiled expression: its closure, and its value when known at compile time. */
export interface CExpr {
  f: Val;
  constant: boolean;
  value?: unknown;
  /** Known result type, when the closure always returns one. */
  type?: 'number' | 'boolean';
}

export function constant(value: unknown): CExpr {
  return { f: () => value, constant: true, value };
}

export function compileExpr(e: Expr, scope: Scope, env: ExprEnv): CExpr {
  switch (e.k) {
    case 'lit':
      return constant(e.v);
    case 'num':
      return constant(Number(e.v));
    case 'name':
      return { f: compileName(e.n, scope), constant: false };
    case 'meta':
      return compileMeta(e.n, scope);
    case 'get':
    case 'idx':
      return compileMember(e, scope, env);
    case 'un':
      return compileUnary(e.op, compileExpr(e.a, scope, env));
    case 'bin':
      return compileBinary(e.op, compileExpr(e.a, scope, env), compileExpr(e.b, scope, env));
    case 'cond': {
      const t = compileExpr(e.t, scope, env);
      const a = compileExpr(e.a, scope, env);
      const b = compileExpr(e.b, scope, env);
      if (t.constant) return t.value ? a : b;
      const tf = t.f,
        af = a.f,
        bf = b.f;
      const r: CExpr = { f: (st) => (tf(st) ? af(st) : bf(st)), constant: false };
      if (a.type !== undefined && a.type === b.type) r.type = a.type;
      return r;
    }
    case 'filt':
      return compileFilter(
        e,
        compileExpr(e.a, scope, env),
        (e.x ?? []).map((x) => compileExpr(x, scope, env)),
        env,
      );
  }
}

function compileName(n: string, scope: Scope): Val {
  const i = scope.lastIndexOf(n);
  if (i < 0) {
    const skip = scope.length;
    return (st) => lookupFree(st, skip, n);
  }
  const d = scope.length - 1 - i;
  if (d === 0) return (st) => st.frame!.value;
  if (d === 1) return (st) => st.frame!.parent!.value;
  return (st) => {
    let f = st.frame!;
    for (let k = 0; k < d; k++) f = f.parent!;
    return f.value;
  };
}

function compileMeta(n: 'index' | 'first' | 'last' | 'length', scope: Scope): CExpr {
  if (scope.length > 0) {
    // Inside a loop of this view: the innermost frame is that loop.
    switch (n) {
      case 'index':
        return { f: (st) => st.frame!.index, constant: false, type: 'number' };
      case 'length':
        return { f: (st) => st.frame!.length, constant: false, type: 'number' };
      case 'first':
        return { f: (st) => st.frame!.index === 0, constant: false, type: 'boolean' };
      case 'last':
        return {
          f: (st) => {
            const f = st.frame!;
            return f.index === f.length - 1;
          },
          constant: false,
          type: 'boolean',
        };
    }
  }
  // Outside this view's loops: an including view's loop, if any.
  switch (n) {
    case 'index':
      return { f: (st) => innermostLoop(st)?.index, constant: false };
    case 'length':
      return { f: (st) => innermostLoop(st)?.length, constant: false };
    case 'first':
      return {
        f: (st) => {
          const f = innermostLoop(st);
          return f === null ? undefined : f.index === 0;
        },
        constant: false,
      };
    case 'last':
      return {
        f: (st) => {
          const f = innermostLoop(st);
          return f === null ? undefined : f.index === f.length - 1;
        },
        constant: false,
      };
  }
}

function compileMember(e: Extract<Expr, { k: 'get' | 'idx' }>, scope: Scope, env: ExprEnv): CExpr {
  // Collect a chain of static keys `a.b.c` into one closure.
  const keys: string[] = [];
  let base: Expr = e;
  while (base.k === 'get') {
    keys.push(base.p);
    base = base.o;
  }
  if (keys.length > 0) {
    keys.reverse();
    const b = compileExpr(base, scope, env);
    return { f: staticPath(b.f, keys), constant: false };
  }
  const idx = e as Extract<Expr, { k: 'idx' }>;
  const o = compileExpr(idx.o, scope, env).f;
  const i = compileExpr(idx.i, scope, env);
  if (i.constant && (typeof i.value === 'string' || typeof i.value === 'number')) {
    return { f: staticPath(o, [i.value as string]), constant: false };
  }
  const kf = i.f;
  return {
    f: (st) => {
      const obj = o(st);
      if (obj == null) return undefined;
      const k = kf(st);
      if (typeof k !== 'string' && typeof k !== 'number') return undefined;
      return hasOwn.call(obj, k) ? (obj as Record<string, unknown>)[k] : undefined;
    },
    constant: false,
  };
}

function staticPath(base: Val, keys: readonly (string | number)[]): Val {
  if (keys.length === 1) {
    const k = keys[0]!;
    return (st) => {
      const o = base(st);
      return o != null && hasOwn.call(o, k) ? (o as Record<string, unknown>)[k] : undefined;
    };
  }
  if (keys.length === 2) {
    const [k1, k2] = keys as [string, string];
    return (st) => {
      const o = base(st);
      if (o == null || !hasOwn.call(o, k1)) return undefined;
      const p = (o as Record<string, unknown>)[k1];
      return p != null && hasOwn.call(p, k2) ? (p as Record<string, unknown>)[k2] : undefined;
    };
  }
  return (st) => {
    let o = base(st);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (o == null || !hasOwn.call(o, k)) return undefined;
      o = (o as Record<string, unknown>)[k];
    }
    return o;
  };
}

function compileUnary(op: '!' | '-' | '+', a: CExpr): CExpr {
  if (a.constant) {
    const v = a.value as number;
    return constant(op === '!' ? !v : op === '-' ? -v : +v);
  }
  const f = a.f;
  switch (op) {
    case '!':
      return { f: (st) => !f(st), constant: false, type: 'boolean' };
    case '-':
      return { f: (st) => -(f(st) as number), constant: false };
    case '+':
      return { f: (st) => +(f(st) as number), constant: false };
  }
}

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JS operator semantics on unknown values

function compileBinary(op: string, a: CExpr, b: CExpr): CExpr {
  if (a.constant && b.constant) return constant(evalBinary(op, a.value, b.value));
  const x = a.f;
  const y = b.f;
  const bool = (f: Val): CExpr => ({ f, constant: false, type: 'boolean' });
  switch (op) {
    case '??':
      return { f: (st) => x(st) ?? y(st), constant: false };
    case '||':
      return { f: (st) => x(st) || y(st), constant: false };
    case '&&':
      return { f: (st) => x(st) && y(st), constant: false };
    case '==':
      // biome-ignore lint/suspicious/noDoubleEquals: the template language's loose equality
      return bool((st) => (x(st) as Any) == y(st));
    case '!=':
      // biome-ignore lint/suspicious/noDoubleEquals: the template language's loose inequality
      return bool((st) => (x(st) as Any) != y(st));
    case '===':
      return bool((st) => x(st) === y(st));
    case '!==':
      return bool((st) => x(st) !== y(st));
    case '<':
      return bool((st) => (x(st) as Any) < (y(st) as Any));
    case '>':
      return bool((st) => (x(st) as Any) > (y(st) as Any));
    case '<=':
      return bool((st) => (x(st) as Any) <= (y(st) as Any));
    case '>=':
      return bool((st) => (x(st) as Any) >= (y(st) as Any));
    case '+':
      return { f: (st) => (x(st) as Any) + (y(st) as Any), constant: false };
    case '-':
      return { f: (st) => (x(st) as Any) - (y(st) as Any), constant: false, type: 'number' };
    case '*':
      return { f: (st) => (x(st) as Any) * (y(st) as Any), constant: false, type: 'number' };
    case '/':
      return { f: (st) => (x(st) as Any) / (y(st) as Any), constant: false, type: 'number' };
    case '%':
      return { f: (st) => (x(st) as Any) % (y(st) as Any), constant: false, type: 'number' };
  }
  throw new Error(`views: unknown operator ${op}`);
}

function evalBinary(op: string, a: Any, b: Any): unknown {
  switch (op) {
    case '??':
      return a ?? b;
    case '||':
      return a || b;
    case '&&':
      return a && b;
    case '==':
      // biome-ignore lint/suspicious/noDoubleEquals: the template language's loose equality
      return a == b;
    case '!=':
      // biome-ignore lint/suspicious/noDoubleEquals: the template language's loose inequality
      return a != b;
    case '===':
      return a === b;
    case '!==':
      return a !== b;
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    case '>=':
      return a >= b;
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
  }
  throw new Error(`views: unknown operator ${op}`);
}
