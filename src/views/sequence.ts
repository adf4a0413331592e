// Sequences of compiled nodes: how runs of text, pure (string-returning) and
// effectful (appending) closures are joined, and how an `if` picks between them.
import type { CExpr } from './compile-expr.ts';
import type { Eff, Str } from './runtime.ts';

/** Exactly one of text / pure / eff. */
export interface Seq {
  text?: string;
  pure?: Str;
  eff?: Eff;
}

export type Item = { k: 'text'; v: string } | { k: 'pure'; make: (pre: string, suf: string) => Str | string } | { k: 'eff'; f: Eff };

/** Concatenation of string parts; constant when every part is. */
export function concat(parts: readonly (Str | string)[]): Str | string {
  // Merge adjacent constants first.
  const merged: (Str | string)[] = [];
  for (const p of parts) {
    const last = merged[merged.length - 1];
    if (typeof p === 'string' && typeof last === 'string') merged[merged.length - 1] = last + p;
    else if (p !== '') merged.push(p);
  }
  if (merged.length === 0) return '';
  if (merged.length === 1) return merged[0]!;
  const fns = merged.map((p) => (typeof p === 'string' ? () => p : p));
  return catAll(fns);
}

export function catAll(f: readonly Str[]): Str {
  switch (f.length) {
    case 1:
      return f[0]!;
    case 2: {
      const [a, b] = f as [Str, Str];
      return (st) => a(st) + b(st);
    }
    case 3: {
      const [a, b, c] = f as [Str, Str, Str];
      return (st) => a(st) + b(st) + c(st);
    }
    case 4: {
      const [a, b, c, d] = f as [Str, Str, Str, Str];
      return (st) => a(st) + b(st) + c(st) + d(st);
    }
    case 5: {
      const [a, b, c, d, e] = f as [Str, Str, Str, Str, Str];
      return (st) => a(st) + b(st) + c(st) + d(st) + e(st);
    }
    case 6: {
      const [a, b, c, d, e, g] = f as [Str, Str, Str, Str, Str, Str];
      return (st) => a(st) + b(st) + c(st) + d(st) + e(st) + g(st);
    }
    default: {
      // A balanced tree keeps closure depth logarithmic in the run length.
      const mid = f.length >> 1;
      const left = catAll(f.slice(0, mid));
      const right = catAll(f.slice(mid));
      return (st) => left(st) + right(st);
    }
  }
}

export function sequence(f: readonly Eff[]): Eff {
  switch (f.length) {
    case 1:
      return f[0]!;
    case 2: {
      const [a, b] = f as [Eff, Eff];
      return (st) => {
        a(st);
        b(st);
      };
    }
    case 3: {
      const [a, b, c] = f as [Eff, Eff, Eff];
      return (st) => {
        a(st);
        b(st);
        c(st);
      };
    }
    default:
      return (st) => {
        for (let i = 0; i < f.length; i++) f[i]!(st);
      };
  }
}

export function toEff(seq: Seq): Eff {
  if (seq.eff !== undefined) return seq.eff;
  if (seq.pure !== undefined) {
    const p = seq.pure;
    return (st) => {
      st.out += p(st);
    };
  }
  const t = seq.text!;
  if (t === '') return noop;
  return (st) => {
    st.out += t;
  };
}

export function toStr(seq: Seq): Str {
  if (seq.pure !== undefined) return seq.pure;
  const t = seq.text ?? '';
  return () => t;
}

export const noop: Eff = () => {};

export function seqItem(seq: Seq): Item {
  if (seq.eff !== undefined) return { k: 'eff', f: seq.eff };
  if (seq.pure !== undefined) {
    const p = seq.pure;
    return { k: 'pure', make: (pre, suf) => (pre === '' && suf === '' ? p : (st) => pre + p(st) + suf) };
  }
  return { k: 'text', v: seq.text! };
}

export function buildIf(branches: { test: CExpr; body: Seq }[], els: Seq): Item {
  const anyEff = els.eff !== undefined || branches.some((b) => b.body.eff !== undefined);
  const tests = branches.map((b) => b.test.f);
  if (anyEff) {
    const bodies = branches.map((b) => toEff(b.body));
    const other = toEff(els);
    if (tests.length === 1) {
      const t = tests[0]!;
      const a = bodies[0]!;
      return {
        k: 'eff',
        f: (st) => {
          if (t(st)) a(st);
          else other(st);
        },
      };
    }
    return {
      k: 'eff',
      f: (st) => {
        for (let i = 0; i < tests.length; i++) {
          if (tests[i]!(st)) {
            bodies[i]!(st);
            return;
          }
        }
        other(st);
      },
    };
  }
  const allText = els.text !== undefined && branches.every((b) => b.body.text !== undefined);
  if (allText && tests.length === 1) {
    // {{#if @first}}F{{else}}-{{/if}}: one test, two constants.
    const t = tests[0]!;
    const a = branches[0]!.body.text!;
    const b = els.text!;
    return {
      k: 'pure',
      make: (pre, suf) => {
        const x = pre + a + suf;
        const y = pre + b + suf;
        return (st) => (t(st) ? x : y);
      },
    };
  }
  const bodies = branches.map((b) => toStr(b.body));
  const other = toStr(els);
  if (tests.length === 1) {
    const t = tests[0]!;
    const a = bodies[0]!;
    return { k: 'pure', make: (pre, suf) => (st) => pre + (t(st) ? a(st) : other(st)) + suf };
  }
  return {
    k: 'pure',
    make: (pre, suf) => (st) => {
      for (let i = 0; i < tests.length; i++) {
        if (tests[i]!(st)) return pre + bodies[i]!(st) + suf;
      }
      return pre + other(st) + suf;
    },
  };
}
