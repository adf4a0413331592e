// rateLimit(): a fixed window of `limit` requests per `window` seconds for each key (the client's
// address by default), counted in a store; answers 429 with Retry-After over the limit, and tells
// every client where it stands with the IETF RateLimit and RateLimit-Policy fields.
import type { Handler } from '../../core/compose.ts';
import type { Context, Env } from '../../core/context.ts';
import { leaveUnreported } from '../../core/error-log.ts';
import { HttpError } from '../../core/errors.ts';
import { named } from '../../core/named.ts';
import { memoryStore } from './memory-store.ts';
import type { RateLimitHit, RateLimitStore, RateLimitVerdict, RateLimitVerdictStore } from './store.ts';

/** What to do with a request whose key function gives no key (`c.req.ip` is undefined where the runtime does not tell). */
export type MissingKey = 'share' | 'allow' | 'reject';

export interface RateLimitOptions<E extends Env = any> {
  /** The window's length in whole seconds. */
  window: number;
  /** Requests allowed per key in one window. */
  limit: number;
  /**
   * Who is counted: a function of the context giving the key. Default `c.req.ip`, the connection's
   * peer, or behind the app's `trustProxy`, the address the proxy forwarded (docs/ip.md).
   */
  key?: (c: Context<E, any, any>) => string | null | undefined | Promise<string | null | undefined>;
  /**
   * Where counts live. Default: a `memoryStore()` of this process (not shared; see docs/scaling.md).
   * A `RateLimitVerdictStore` (`rateLimitBindingStore()`) only decides: see docs/rate-limit.md.
   * Or a function of the context that gives the store, for one that depends on the runtime or on
   * `c.env`: `(c) => (c.env.LIMITS ? durableObjectStore(c.env.LIMITS) : redis)` (docs/deploy.md).
   */
  store?: RateLimitStore | RateLimitVerdictStore | ((c: Context<E, any, any>) => RateLimitStore | RateLimitVerdictStore);
  /**
   * When the store fails or does not answer within `storeTimeout`: `'close'` (the default) answers
   * 503, so an outage never lifts the limit; `'open'` lets the request through uncounted. Either
   * way the error is logged (at most once a minute).
   */
  onStoreError?: 'close' | 'open';
  /** Milliseconds to wait for the store before `onStoreError` applies. Default 1000. */
  storeTimeout?: number;
  /**
   * A request with no key (the key function gave undefined, null or ''): `'share'` (the default)
   * counts all of them under one key, so they share one limit; `'allow'` lets them through
   * uncounted; `'reject'` answers 500 and logs it, for apps where a missing key is a misconfiguration.
   */
  missingKey?: MissingKey;
  /** The policy's name in the RateLimit fields, and the prefix of its keys in the store. Default `default`. */
  name?: string;
  /** Send RateLimit and RateLimit-Policy on every response. Default true (429s always carry them). */
  headers?: boolean;
}

/** Keys longer than this are hashed (SHA-256) before they reach the store: a key can come from the request. */
const MAX_KEY_LENGTH = 128;
const LOG_EVERY_MS = 60_000;
/** The key under which requests without one are counted when `missingKey` is 'share'. */
const SHARED_KEY = '\u0000no-key';

type Answer = RateLimitHit | RateLimitVerdict;

/**
 * Limit each client to `limit` requests per `window` seconds. Over the limit the answer is 429
 * (problem+json, through the app's error handler) with `Retry-After`; every answer carries
 * `RateLimit-Policy: "default";q=<limit>;w=<window>` and `RateLimit: "default";r=<remaining>;t=<seconds>`
 * (draft-ietf-httpapi-ratelimit-headers). See docs/rate-limit.md.
 *
 * @example
 * import { rateLimit } from 'rove/rate-limit';
 * app.use('/api', rateLimit({ window: 60, limit: 100 }));
 * // Per signed-in user, counted in Redis shared by every process:
 * app.use('/api', rateLimit({ window: 60, limit: 1000, key: (c) => c.get('user')?.id, store: redisStore(client) }));
 */
export function rateLimit<E extends Env = any>(options: RateLimitOptions<E>): Handler<E> {
  const { window, limit } = options;
  if (!Number.isInteger(window) || window < 1) throw new RangeError('rateLimit(): window is a whole number of seconds, at least 1');
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('rateLimit(): limit is a whole number, at least 1');
  const name = options.name ?? 'default';
  // An sf-string: printable ASCII without the quote and backslash that would need escaping.
  if (!/^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(name)) throw new TypeError('rateLimit(): name is 1 to 64 printable ASCII characters, without " or \\');
  const onStoreError = options.onStoreError ?? 'close';
  if (onStoreError !== 'close' && onStoreError !== 'open') throw new TypeError("rateLimit(): onStoreError is 'close' or 'open'");
  const missingKey = options.missingKey ?? 'share';
  if (missingKey !== 'share' && missingKey !== 'allow' && missingKey !== 'reject')
    throw new TypeError("rateLimit(): missingKey is 'share', 'allow' or 'reject'");
  const storeTimeout = options.storeTimeout ?? 1000;
  if (!(storeTimeout > 0)) throw new RangeError('rateLimit(): storeTimeout is a positive number of milliseconds');
  const keyOf = options.key ?? ((c: Context<E, any, any>) => c.req.ip);
  type Counter = { hit(key: string, windowMs: number, c: Context<E, any, any>): Answer | Promise<Answer> };
  const given = options.store ?? memoryStore();
  const storeOf: (c: Context<E, any, any>) => Counter = typeof given === 'function' ? given : () => given;
  const windowMs = window * 1000;
  const sendHeaders = options.headers !== false;
  const policy = `"${name}";q=${limit};w=${window}`;
  const prefix = `${name}:`;
  const log = throttledLog();

  const checked = (hit: RateLimitHit | RateLimitVerdict): RateLimitHit | RateLimitVerdict => {
    if (isVerdict(hit)) return hit;
    if (!Number.isFinite((hit as RateLimitHit)?.count) || !Number.isFinite((hit as RateLimitHit)?.resetMs))
      throw new TypeError('the store answered without a count and a reset time');
    return hit;
  };
  const failed = (error: unknown): undefined => {
    log(`rateLimit(): store error, failing ${onStoreError === 'open' ? 'open (request let through)' : 'closed (503)'}`, error);
    if (onStoreError === 'open') return undefined;
    // Logged just above, at most once a minute: the app's default error report leaves it out.
    throw leaveUnreported(new HttpError(503, 'Rate limit unavailable', { cause: error, headers: { 'retry-after': '1' } }));
  };
  // A store that answers at once (memoryStore) needs no timer: only a pending answer is raced
  // against storeTimeout, so the in-memory limit costs no setTimeout and no promise per request.
  const count = (key: string, c: Context<E, any, any>): Answer | undefined | Promise<Answer | undefined> => {
    let pending: Promise<Answer> | Answer;
    try {
      pending = storeOf(c).hit(prefix + key, windowMs, c);
      if (!isThenable(pending)) return checked(pending);
    } catch (error) {
      return failed(error);
    }
    return raced(pending);
  };
  const raced = async (pending: Promise<Answer>): Promise<Answer | undefined> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timedOut = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error(`the store did not answer in ${storeTimeout} ms`)), storeTimeout);
      });
      return checked(await Promise.race([pending, timedOut]));
    } catch (error) {
      return failed(error);
    } finally {
      clearTimeout(timer);
    }
  };

  const guard: Handler<E> = async (c, next) => {
    const found = keyOf(c);
    let key = isThenable(found) ? await found : found;
    if (key === undefined || key === null || key === '') {
      if (missingKey === 'allow') return next();
      if (missingKey === 'reject') {
        log('rateLimit(): the key function gave no key (missingKey is reject)', undefined);
        throw leaveUnreported(new HttpError(500, 'No rate-limit key for this request'));
      }
      key = SHARED_KEY;
    } else if (typeof key !== 'string') {
      throw new TypeError('rateLimit(): the key function must give a string');
    } else if (key.length > MAX_KEY_LENGTH) {
      key = `#${await sha256(key)}`;
    }
    const counted = count(key, c);
    const hit = isThenable(counted) ? await counted : counted;
    if (hit === undefined) return next();
    if (isVerdict(hit)) {
      // The store only decided (the platform counts): no remaining count and no reset time to tell.
      if (!hit.allowed) {
        throw new HttpError(429, `Too many requests; retry after ${window} s`, {
          headers: { 'retry-after': String(window), 'ratelimit-policy': policy, ratelimit: `"${name}";r=0` },
        });
      }
      if (sendHeaders) c.header('ratelimit-policy', policy);
      return next();
    }
    const reset = Math.max(0, Math.ceil(hit.resetMs / 1000));
    const remaining = Math.max(0, limit - hit.count);
    const state = `"${name}";r=${remaining};t=${reset}`;
    if (hit.count > limit) {
      throw new HttpError(429, `Too many requests; retry after ${reset} s`, {
        headers: { 'retry-after': String(reset), 'ratelimit-policy': policy, ratelimit: state },
      });
    }
    if (sendHeaders) {
      c.header('ratelimit-policy', policy);
      c.header('ratelimit', state);
    }
    return next();
  };
  return named('rateLimit', guard);
}

function isVerdict(answer: Answer | undefined): answer is RateLimitVerdict {
  return typeof (answer as RateLimitVerdict | undefined)?.allowed === 'boolean';
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Logs each message at most once a minute: a store that is down fails every request. */
function throttledLog(): (message: string, error: unknown) => void {
  const last = new Map<string, number>();
  return (message, error) => {
    const now = Date.now();
    const at = last.get(message);
    if (at !== undefined && now - at < LOG_EVERY_MS) return;
    if (last.size >= 16) last.clear();
    last.set(message, now);
    console.error(`rove: ${message}`, error ?? '');
  };
}
