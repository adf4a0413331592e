// The order of one cache()'s stores and invalidations in this process. A copy is stored after its
// answer went out (in the background), so a write that succeeds in between would otherwise be
// undone: the read's older copy would land after the write's invalidation.

/**
 * Marks and waits that keep a read's copy from outliving a write: a read begun before a write to
 * its URL succeeded stores nothing, and an invalidation waits for a store already under way.
 */
export class WriteOrder {
  #seq = 0;
  /** Reads begun before this mark store nothing: their URL's invalidation was forgotten (the map is bounded). */
  #floor = 0;
  #changed = new Map<string, number>();
  #storing = new Map<string, Promise<unknown>>();

  constructor(private readonly remembered = 1024) {}

  /** A mark, taken when a read begins. */
  mark(): number {
    return this.#seq;
  }

  /** Whether a read begun at `mark` may store its copy of `url`: no write to it has succeeded since. */
  mayStore(url: string, mark: number): boolean {
    return mark >= this.#floor && (this.#changed.get(url) ?? 0) <= mark;
  }

  /** A write to `url` succeeded (call it at once): a store of it under way, to wait for before deleting. */
  changed(url: string): Promise<unknown> | undefined {
    const seq = ++this.#seq;
    this.#changed.delete(url);
    this.#changed.set(url, seq);
    if (this.#changed.size > this.remembered) {
      const [oldest, at] = this.#changed.entries().next().value as [string, number];
      this.#changed.delete(oldest);
      this.#floor = Math.max(this.#floor, at);
    }
    return this.#storing.get(url);
  }

  /** A store of `url` under way, until it settles. */
  storing(url: string, done: Promise<unknown>): void {
    this.#storing.set(url, done);
    const settled = () => {
      if (this.#storing.get(url) === done) this.#storing.delete(url);
    };
    done.then(settled, settled);
  }
}
