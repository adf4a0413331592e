// A small, short-lived memory of what a path resolved to, so a busy file does
// not cost a realpath and a stat on every request. Bounded in size and age.

/** How long a resolved path is trusted, in ms. */
export const RECENT_TTL_MS = 1000;
/** Most paths remembered at once; the memory is cleared when full. */
export const RECENT_MAX = 1024;

/**
 * Remembers values for `ttlMs`. A miss or an expired entry answers undefined.
 *
 * @example
 * const recent = new Recent<string>();
 * recent.set('app.css', '/srv/public/app.css');
 * recent.get('app.css'); // '/srv/public/app.css' for the next second
 */
export class Recent<V> {
  #map = new Map<string, { value: V; until: number }>();
  constructor(
    readonly ttlMs = RECENT_TTL_MS,
    readonly max = RECENT_MAX,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const hit = this.#map.get(key);
    if (hit === undefined) return undefined;
    if (hit.until < now) {
      this.#map.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.#map.size >= this.max) this.#map.clear();
    this.#map.set(key, { value, until: now + this.ttlMs });
  }
}
