// Items and the audit log kept in memory, each bounded: on Workers each isolate has its own.

export interface Item {
  id: number;
  text: string;
  expiresAt: number;
}

const MAX_ITEMS = 1000;
const MAX_AUDIT = 100;

/**
 * @example
 * const store = new ItemStore();
 * store.add('milk', Date.now() + 60_000);
 * store.removeExpired(Date.now() + 120_000); // 1
 */
export class ItemStore {
  readonly #items = new Map<number, Item>();
  readonly #audit: string[] = [];
  #nextId = 1;
  lastBeat: number | null = null;

  add(text: string, expiresAt: number): Item {
    const item = { id: this.#nextId++, text, expiresAt };
    this.#items.set(item.id, item);
    // The oldest goes first when the store is full.
    if (this.#items.size > MAX_ITEMS) this.#items.delete(this.#items.keys().next().value!);
    return item;
  }

  list(): Item[] {
    return [...this.#items.values()];
  }

  get size(): number {
    return this.#items.size;
  }

  /** Remove what has expired by `now`; how many went. */
  removeExpired(now: number): number {
    let removed = 0;
    for (const [id, item] of this.#items) {
      if (item.expiresAt <= now) {
        this.#items.delete(id);
        removed++;
      }
    }
    return removed;
  }

  audit(line: string): void {
    this.#audit.push(line);
    if (this.#audit.length > MAX_AUDIT) this.#audit.shift();
  }

  auditLog(): readonly string[] {
    return this.#audit;
  }

  beat(at: number): void {
    this.lastBeat = at;
  }
}
