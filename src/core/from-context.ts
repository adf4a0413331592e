// Options that hold secrets or deployment settings (session keys, JWT secrets, passwords,
// allowed origins) take a fixed value or a function of the request's context: on Workers,
// `env` (secrets, vars) exists only per request, as `c.env`.
import type { Context, Env } from './context.ts';

/**
 * An option's value found on the request's context, typically in `c.env`. Typed with the app's
 * Env, so `c.env.SESSION_SECRET` type-checks when the app declares its Bindings.
 *
 * @example
 * const app = new App<{ Bindings: { SESSION_SECRET: string } }>();
 * app.use(session({ keys: (c) => [c.env.SESSION_SECRET] }));
 */
export type FromContext<E extends Env, T> = (c: Context<E, any, any>) => T;

/**
 * An option that, resolved on a request, gave nothing usable (an unset variable, a short
 * secret, a bad origin). The request fails with a 500 and the message is logged: a missing
 * secret never lets a request through, nor turns into a client's 401 or 403.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Each message is logged at most once a minute: a misconfigured deployment fails every request. */
const LOG_EVERY_MS = 60_000;

/**
 * Makes a middleware's configuration errors, and logs them (each message at most once a minute,
 * per middleware). Messages name the option, never its value.
 *
 * @example
 * const problems = new ConfigProblems();
 * throw problems.error('session(): keys(c) gave no secret');
 */
export class ConfigProblems {
  readonly #logged = new Map<string, number>();

  /** A ConfigError with this message, logged. */
  error(message: string): ConfigError {
    const now = Date.now();
    const last = this.#logged.get(message);
    if (last === undefined || now - last >= LOG_EVERY_MS) {
      if (this.#logged.size >= 16) this.#logged.clear();
      this.#logged.set(message, now);
      console.error(`rove: configuration error: ${message}`);
    }
    return new ConfigError(message);
  }

  /**
   * The ConfigError for an option function that threw, logged. Only the error's name is put in
   * the message: an error's message can quote the value it choked on (JSON.parse does), a secret here.
   */
  failed(what: string, error: unknown): ConfigError {
    if (error instanceof ConfigError) return error;
    const name = error instanceof Error ? error.name : typeof error;
    const failed = this.error(`${what} threw (a ${name}; the error is this one's cause)`);
    failed.cause = error;
    return failed;
  }
}

/**
 * Values derived from resolved option values (imported keys, a parsed origin list), kept by
 * their input's text, most recently used last, at most `max` of them.
 *
 * Why keyed by the input rather than kept once: a function of the context is called on every
 * request and may give another value (a rotated secret, another env in tests); the derivation
 * (key import, parsing, checks) is what costs, so it runs once per isolate for each value, and
 * again only for a value not seen lately. Bounded, so a function that gives a new value each
 * time cannot grow memory.
 *
 * @example
 * const sealers = new Derived(4, (secrets: readonly string[]) => sealer(secrets, 'rove/session rove.sid'));
 * const box = sealers.get(JSON.stringify(list), list);
 */
export class Derived<I, T> {
  readonly #map = new Map<string, T>();
  #lastKey: string | undefined;
  #lastValue: T | undefined;

  constructor(
    readonly max: number,
    readonly derive: (input: I) => T,
  ) {}

  /** The value derived from `input`, whose text is `key`; `derive` throws for a bad input, which is not kept. */
  get(key: string, input: I): T {
    // The usual case: the same value as on the last request.
    if (key === this.#lastKey) return this.#lastValue as T;
    const map = this.#map;
    let value = map.get(key);
    if (value === undefined) {
      value = this.derive(input);
      if (map.size >= this.max) map.delete(map.keys().next().value as string);
    } else map.delete(key);
    map.set(key, value);
    this.#lastKey = key;
    this.#lastValue = value;
    return value;
  }

  get size(): number {
    return this.#map.size;
  }
}

/**
 * A list option as given or resolved: one string or a list, as an array; null when it is neither.
 *
 * @example
 * asList('a') // ['a']
 */
export function asList(value: unknown): readonly unknown[] | null {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value : null;
}
