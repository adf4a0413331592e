// Content-Security-Policy from an object of directives, with a per-response nonce.

/** Put this in a source list (`scriptSrc: ["'self'", NONCE]`) to get `'nonce-…'` for the response. */
export const NONCE = Symbol.for('rove.csp.nonce');

export type CspSource = string | typeof NONCE;

/** Directives in camelCase (`scriptSrc`, `frameAncestors`) or as written (`script-src`). */
export type CspDirectives = Record<string, readonly CspSource[] | boolean | undefined>;

const NAME = /^[a-z][a-z0-9-]*$/;
// A source expression never holds these: they would end the directive or the header.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const BAD_SOURCE = /[;,\r\n\u0000-\u001f\u007f]/;

/** `scriptSrc` → `script-src`. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);
}

/**
 * Compile directives into a header builder: the policy is checked once, and
 * each response only puts its nonce in.
 *
 * @example
 * const build = compileCsp({ defaultSrc: ["'self'"], scriptSrc: ["'self'", NONCE] });
 * build('abc'); // "default-src 'self'; script-src 'self' 'nonce-abc'"
 */
export function compileCsp(directives: CspDirectives): { usesNonce: boolean; build(nonce: string | undefined): string } {
  const parts: (string | typeof NONCE)[][] = [];
  let usesNonce = false;
  for (const key of Object.keys(directives)) {
    const value = directives[key];
    if (value === undefined || value === false) continue;
    const name = kebab(key);
    if (!NAME.test(name)) throw new TypeError(`secureHeaders: invalid CSP directive ${JSON.stringify(key)}`);
    if (value === true) {
      parts.push([name]);
      continue;
    }
    const item: (string | typeof NONCE)[] = [name];
    for (const source of value) {
      if (source === NONCE) usesNonce = true;
      else if (typeof source !== 'string' || BAD_SOURCE.test(source) || source.trim() === '') {
        throw new TypeError(`secureHeaders: invalid source ${JSON.stringify(source)} in CSP directive ${name}`);
      }
      item.push(source);
    }
    parts.push(item);
  }
  // The policy as text around its nonce slots, joined once: a response only puts its nonce in.
  const text = parts.map((p) => p.map((s) => (s === NONCE ? '\u0000' : s)).join(' ')).join('; ');
  const pieces = text.split('\u0000');
  return {
    usesNonce,
    build(nonce) {
      let out = pieces[0];
      for (let i = 1; i < pieces.length; i++) out += `'nonce-${nonce}'${pieces[i]}`;
      return out;
    },
  };
}
