// Notes kept in memory, per user, with limits so that nothing grows without bound:
// at most MAX_USERS users (the least recently written is dropped first) and
// MAX_NOTES notes per user (the oldest is dropped first).

export interface Note {
  id: number;
  text: string;
  createdAt: string;
}

export const MAX_TEXT = 500;
const MAX_NOTES = 100;
const MAX_USERS = 1000;

/**
 * An in-memory notebook. On Workers each isolate has its own (the example does not need more).
 *
 * @example
 * const notes = new NoteStore();
 * notes.add('ada', 'first note');
 * notes.list('ada'); // [{ id: 1, text: 'first note', createdAt: '…' }]
 */
export class NoteStore {
  // A Map, not an object: a user called `__proto__` is just a key.
  readonly #byUser = new Map<string, Note[]>();
  #nextId = 1;

  list(user: string): readonly Note[] {
    return this.#byUser.get(user) ?? [];
  }

  add(user: string, text: string): Note {
    const note: Note = { id: this.#nextId++, text, createdAt: new Date().toISOString() };
    const notes = this.#byUser.get(user) ?? [];
    // Re-inserting moves the user to the end of the Map's order: the eviction order below.
    this.#byUser.delete(user);
    this.#byUser.set(user, notes);
    notes.push(note);
    if (notes.length > MAX_NOTES) notes.shift();
    if (this.#byUser.size > MAX_USERS) this.#byUser.delete(this.#byUser.keys().next().value!);
    return note;
  }

  get users(): number {
    return this.#byUser.size;
  }

  get count(): number {
    let n = 0;
    for (const notes of this.#byUser.values()) n += notes.length;
    return n;
  }
}

/** A note's text from untrusted input: a trimmed string of 1 to MAX_TEXT characters, or null. */
export function noteText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text.length > 0 && text.length <= MAX_TEXT ? text : null;
}
