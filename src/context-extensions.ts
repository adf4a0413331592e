// Members that rove/session and rove/csrf put on every context when they load
// (one prototype property each, no cost per request). They are typed in the
// core because JSR publishes no module augmentation; the code stays in the subpaths.

/** `c.session`: the request's session, once `app.use(session({ keys }))` from rove/session ran. */
export interface SessionApi {
  /** The value stored under `key`, or undefined. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  has(key: string): Promise<boolean>;
  /** Store a JSON-serialisable value; the cookie (or store) is written when the response goes out. */
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every value, as a plain object. */
  all(): Promise<Record<string, unknown>>;
  /** A new id with the same data (call it at login); CSRF tokens handed out before it stop working. */
  regenerate(): Promise<void>;
  /** End the session: its data is dropped and the cookie cleared. */
  destroy(): Promise<void>;
}
