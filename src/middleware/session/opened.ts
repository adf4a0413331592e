// A bounded memory of sealed values already opened, by their exact text. A browser sends the
// same session cookie with every request until the session changes: remembering what it
// opened to saves one AES-GCM decryption per request. Only values that opened (authenticated
// under the sealer's own keys) are kept, so a hit answers exactly what decryption would.

/** Most values remembered at once, by default. */
export const OPENED_MAX = 1024;
/** Bound on the characters (sealed and opened text together) remembered at once. */
export const OPENED_MAX_CHARS = 1 << 20;

/**
 * Sealed text → opened text, least recently used first out. Bounded in entries and in
 * characters; a pair longer than a sixteenth of the character budget is not kept at all.
 *
 * @example
 * const opened = new Opened(1024);
 * opened.set(sealed, '{"d":{}}');
 * opened.get(sealed); // '{"d":{}}'
 */
export class Opened {
  #map = new Map<string, string>();
  #chars = 0;
  readonly #maxPair: number;

  constructor(
    readonly max = OPENED_MAX,
    readonly maxChars = OPENED_MAX_CHARS,
  ) {
    this.#maxPair = Math.floor(maxChars / 16);
  }

  get size(): number {
    return this.#map.size;
  }

  get chars(): number {
    return this.#chars;
  }

  get(sealed: string): string | undefined {
    const map = this.#map;
    const plain = map.get(sealed);
    if (plain === undefined) return undefined;
    // Most recently used last: the first key is the one to drop.
    map.delete(sealed);
    map.set(sealed, plain);
    return plain;
  }

  set(sealed: string, plain: string): void {
    const cost = sealed.length + plain.length;
    if (this.max <= 0 || cost > this.#maxPair) return;
    const map = this.#map;
    const old = map.get(sealed);
    if (old !== undefined) {
      map.delete(sealed);
      this.#chars -= sealed.length + old.length;
    }
    while (map.size > 0 && (map.size >= this.max || this.#chars + cost > this.maxChars)) {
      const [key, value] = map.entries().next().value as [string, string];
      map.delete(key);
      this.#chars -= key.length + value.length;
    }
    map.set(sealed, plain);
    this.#chars += cost;
  }
}
