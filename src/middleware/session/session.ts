// The per-request session object. Nothing is read, decrypted or fetched until a method is
// called; the middleware (middleware.ts) writes it back after the handlers, only when it changed.
import type { Context } from '../../core/context.ts';

/** What loading found: the values, Rove's CSRF secret, and the server-side id when a store keeps it. */
export interface LoadedSession {
  id: string | undefined;
  data: Map<string, unknown>;
  csrf: string | undefined;
}

/** How a Session reaches its storage; the middleware provides it. */
export interface SessionBackend {
  load(): Promise<LoadedSession | null>;
}

/** What the middleware and csrf() reach inside a Session; not exported from the package. */
export interface SessionInternals {
  /** Whether any method was called (only then is there anything to save). */
  touched(s: Session): boolean;
  /** Whether there may be anything to save: touched, and changed, destroyed or regenerated. */
  changed(s: Session): boolean;
  state(s: Session): SessionState;
  record(s: Session): { data: Map<string, unknown>; csrf: string | undefined };
  setId(s: Session, id: string): void;
  /** The session's CSRF secret; `make` creates one (and marks the session changed) when there is none. */
  csrfSecret(s: Session, make: (() => string) | undefined): Promise<string | undefined>;
}

// Filled in by the class's static block.
export let sessionInternals: SessionInternals;

/**
 * `getSession(c)`: the current visitor's session. Every method is async: the first call loads the
 * session (decrypts the cookie or asks the store); later calls reuse what was loaded.
 * Values must survive `JSON.stringify`. A changed session is saved and its cookie sent after
 * the handlers ran; one that was only read sends nothing.
 *
 * @example
 * app.post('/login', async (c) => {
 *   await getSession(c).regenerate();             // new id, same data: no session fixation
 *   await getSession(c).set('user', { name: 'ada' });
 *   return c.redirect('/', 303);
 * });
 * app.get('/me', async (c) => c.json(await getSession(c).get('user')));
 */
export class Session {
  #backend: SessionBackend;
  #loading: Promise<void> | undefined;
  #data = new Map<string, unknown>();
  #id: string | undefined;
  #csrf: string | undefined;
  /** Whether a valid session came with the request (and was not destroyed since). */
  #existing = false;
  #dirty = false;
  #regenerated = false;
  #destroyed = false;
  /** Server-side ids to delete when the request ends (destroyed or regenerated). */
  #obsolete: string[] = [];

  constructor(backend: SessionBackend) {
    this.#backend = backend;
  }

  /** The value stored under `key`, or undefined. */
  async get<T = unknown>(key: string): Promise<T | undefined> {
    await this.#load();
    return this.#data.get(key) as T | undefined;
  }

  async has(key: string): Promise<boolean> {
    await this.#load();
    return this.#data.has(key);
  }

  /** Store a value (anything `JSON.stringify` keeps); `undefined` deletes the key. */
  async set(key: string, value: unknown): Promise<void> {
    if (typeof key !== 'string') throw new TypeError('Session keys are strings');
    if (value === undefined) return this.delete(key);
    await this.#load();
    this.#data.set(key, value);
    this.#dirty = true;
  }

  async delete(key: string): Promise<void> {
    await this.#load();
    if (this.#data.delete(key)) this.#dirty = true;
  }

  /** Every value, as an object without a prototype (so `__proto__` is a key like any other). */
  async all(): Promise<Record<string, unknown>> {
    await this.#load();
    return toObject(this.#data);
  }

  /**
   * Keep the data under a new session id, and retire the old one. Call it when the visitor
   * logs in (or gains rights), so an id planted before login is worth nothing after it. The
   * CSRF secret is renewed too: a token learned through a planted session stops working.
   */
  async regenerate(): Promise<void> {
    await this.#load();
    if (this.#id !== undefined) this.#obsolete.push(this.#id);
    this.#id = undefined;
    this.#csrf = undefined;
    this.#regenerated = true;
    this.#dirty = true;
  }

  /** End the session: its data is dropped, the server store forgets it, and the cookie is deleted. */
  async destroy(): Promise<void> {
    await this.#load();
    if (this.#id !== undefined) this.#obsolete.push(this.#id);
    this.#id = undefined;
    this.#data = new Map();
    this.#csrf = undefined;
    this.#existing = false;
    this.#destroyed = true;
    this.#dirty = false;
    this.#regenerated = false;
  }

  #load(): Promise<void> {
    return (this.#loading ??= this.#backend.load().then((found) => {
      if (found === null) return;
      this.#data = found.data;
      this.#id = found.id;
      this.#csrf = found.csrf;
      this.#existing = true;
    }));
  }

  static {
    sessionInternals = {
      touched: (s) => s.#loading !== undefined,
      changed: (s) => s.#loading !== undefined && (s.#dirty || s.#destroyed || s.#obsolete.length > 0),
      state: (s) => ({
        touched: s.#loading !== undefined,
        dirty: s.#dirty,
        destroyed: s.#destroyed,
        regenerated: s.#regenerated,
        existing: s.#existing,
        id: s.#id,
        obsolete: s.#obsolete,
        loading: s.#loading,
      }),
      record: (s) => ({ data: s.#data, csrf: s.#csrf }),
      setId: (s, id) => {
        s.#id = id;
      },
      async csrfSecret(s, make) {
        await s.#load();
        if (s.#csrf === undefined && make !== undefined) {
          s.#csrf = make();
          s.#dirty = true;
        }
        return s.#csrf;
      },
    };
  }
}

export interface SessionState {
  touched: boolean;
  dirty: boolean;
  destroyed: boolean;
  regenerated: boolean;
  existing: boolean;
  id: string | undefined;
  obsolete: string[];
  loading: Promise<void> | undefined;
}

export function toObject(data: Map<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of data) out[k] = v;
  return out;
}

/** Where the middleware keeps the Session on the context (`c.get('session')`). */
export const SESSION_KEY = 'session';

/**
 * The session of a request, or an error saying how to get one.
 *
 * @example
 * const user = await getSession(c).get('user');
 */
export function getSession(c: Pick<Context<any, any>, 'get'>): Session {
  const found = (c.get as (key: string) => unknown)(SESSION_KEY);
  if (!(found instanceof Session)) throw new Error('No session on this request: register app.use(session({ keys })) before the routes that call getSession(c)');
  return found;
}
