// Number formatting shared by the Markdown, HTML, SVG and terminal writers.
import { median } from '../lib/result.ts';

export const DASH = '–';

export function int(n: number | null | undefined): string {
  return n == null || !Number.isFinite(n) ? DASH : Math.round(n).toLocaleString('en-US');
}

/** 65123 → "65.1k" for chart labels. */
export function compact(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return DASH;
  if (Math.abs(n) >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (Math.abs(n) >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  if (Math.abs(n) >= 1e3) return `${(n / 1e3).toFixed(2)}k`;
  if (Math.abs(n) >= 100 || Number.isInteger(n)) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

export function ms(n: number | null | undefined, digits = 2): string {
  return n == null || !Number.isFinite(n) ? DASH : `${n.toFixed(digits)} ms`;
}

export function fixed(n: number | null | undefined, digits: number, unit = ''): string {
  return n == null || !Number.isFinite(n) ? DASH : n.toFixed(digits) + unit;
}

export function times(r: number | null | undefined): string {
  return r == null || !Number.isFinite(r) ? DASH : `${r.toFixed(2)}×`;
}

/** `median (lowest–highest)` of the rounds' figures, each written by `f`; one figure alone. */
export function rangeText(xs: readonly number[], f: (n: number) => string): string {
  return xs.length > 1 ? `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : f(xs[0]!);
}
