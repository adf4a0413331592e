// Trusted HTML: the one way a value reaches `{{ }}` output unescaped. Only `safe()` makes one, and
// the check is a private field, so no object of another shape (a filter's `{ html }`, a JSON
// value, an object made from this prototype) passes for it.

/** HTML the app vouches for, written by `{{ }}` as it is. Make one with `safe(html)`. */
export class SafeHtml {
  readonly #html: string;

  constructor(html: string) {
    this.#html = String(html);
  }

  /** Whether `value` was made by `safe()` (or `new SafeHtml`). */
  static is(value: unknown): value is SafeHtml {
    return typeof value === 'object' && value !== null && #html in value;
  }

  toString(): string {
    return this.#html;
  }
}

/**
 * Marks `html` as trusted: `{{ }}` writes it as it is instead of escaping it. For a filter that
 * builds markup from values it escaped itself; anything else a filter returns is escaped.
 *
 * @example
 * import { createViews, escapeHtml, safe } from 'rove/views';
 * createViews({ filters: { bold: (v) => safe(`<b>${escapeHtml(String(v))}</b>`) } });
 * // {{ name | bold }} → <b>Ada &amp; co</b>
 */
export function safe(html: string): SafeHtml {
  return new SafeHtml(html);
}
