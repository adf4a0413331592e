// session(): puts a lazy Session on each request and, after the handlers, saves it and sends
// its cookie when (and only when) it changed.

import type { Handler } from '../../core/compose.ts';
import type { Context, Env } from '../../core/context.ts';
import { asList, ConfigProblems, Derived, type FromContext } from '../../core/from-context.ts';
import { named } from '../../core/named.ts';
import { toBase64Url } from '../../http/base64url.ts';
import { getCookie } from '../../http/cookie.ts';
import { type CookieOptions, findCookie, serializeCookie } from '../../http/cookies.ts';
import { checkSecrets, type Sealer, sealer } from './seal.ts';
import { type LoadedSession, SESSION_KEY, Session, sessionInternals, toObject } from './session.ts';
import { type CookieStore, cookieStore, isCookieStore, type SessionStore } from './store.ts';

export interface SessionCookieOptions {
  path?: string;
  domain?: string;
  /** Default `Lax`: the cookie goes with top-level navigations from other sites, not with their POSTs. */
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** Default true: scripts in the page cannot read the cookie. */
  httpOnly?: boolean;
  /** Default `'auto'`: Secure when the request is https (`c.req.protocol`: behind a TLS proxy, with the app's trustProxy); always Secure for a `__Host-`/`__Secure-` name. */
  secure?: boolean | 'auto';
  partitioned?: boolean;
  /** Send the cookie without Max-Age, so the browser drops it when it closes (the session still expires after maxAge). */
  browserSession?: boolean;
}

/** Session secrets: one, or the current one first and older ones after it. */
export type SessionKeys = string | readonly string[];

export interface SessionOptions<E extends Env = any> {
  /**
   * Secrets of at least 32 bytes: the first seals, all of them open (rotate by putting a new one
   * first). Or a function of the context that gives them, for secrets that live in `c.env`
   * (Workers): `(c) => [c.env.SESSION_SECRET]`, called when a request uses its session.
   */
  keys: SessionKeys | FromContext<E, SessionKeys | Promise<SessionKeys>>;
  /**
   * Where sessions live: `cookieStore()` (the default), `memoryStore()`, `kvStore(…)`, or your own.
   * Or a function of the context that gives the store, for one that depends on the runtime or on
   * `c.env`: `(c) => kvStore(c.env.SESSIONS)` (docs/deploy.md).
   */
  store?: SessionStore | CookieStore | FromContext<E, SessionStore | CookieStore>;
  /** The cookie's name. Default `rove.sid`. */
  name?: string;
  /** Seconds a session lives after it was last saved. Default 86,400 (one day). */
  maxAge?: number;
  cookie?: SessionCookieOptions;
  /**
   * Session cookies remembered once opened, by their exact text, so a browser resending the
   * same cookie costs no decryption (least recently used out; 0: decrypt every time). Default
   * 1024. Expiry is still checked on every request. See docs/session.md.
   */
  remember?: number;
}

/** What browsers keep of one cookie's name and value, at least (RFC 6265 §6.1). */
export const MAX_COOKIE_SIZE = 4096;
const DEFAULT_MAX_AGE = 86_400;
/** Key lists kept derived for a `keys` function: the current list and one or two just rotated out. */
const MAX_KEY_LISTS = 4;
const encoder = new TextEncoder();

/** A session larger than one cookie can carry. */
export class SessionTooLargeError extends Error {
  constructor(readonly size: number) {
    super(
      `The session cookie would be ${size} bytes, over the ${MAX_COOKIE_SIZE}-byte cookie limit: keep less in the session, or use a server-side store (memoryStore(), kvStore())`,
    );
    this.name = 'SessionTooLargeError';
  }
}

/**
 * Sessions: `getSession(c).get/set/delete/regenerate/destroy`. By default the session lives in the
 * cookie, sealed with AES-256-GCM under keys derived from `keys`; `store` keeps it on the server
 * instead, with only a sealed random id in the cookie. A request that does not touch
 * `getSession(c)` costs no crypto and sends no cookie. See docs/session.md.
 *
 * @example
 * import { session } from 'rove/session';
 * app.use(session({ keys: [process.env.SESSION_SECRET!] })); // Node, Deno, Bun: read at startup
 * // On Workers, where secrets come with each request:
 * app.use(session({ keys: (c) => [c.env.SESSION_SECRET] }));
 * app.get('/visits', async (c) => {
 *   const n = ((await getSession(c).get<number>('visits')) ?? 0) + 1;
 *   await getSession(c).set('visits', n);
 *   return c.json({ n });
 * });
 */
export function session<E extends Env = any>(options: SessionOptions<E>): Handler<E> {
  const keysOption = options?.keys;
  // Fixed keys are checked now; a function's are checked when it gives them.
  const keys = typeof keysOption === 'function' ? undefined : checkSecrets(keysOption, 'session()');
  const name = options.name ?? 'rove.sid';
  // The name is checked now: serializeCookie would refuse it on the first response otherwise.
  serializeCookie(name, '', { secure: true }); // the prefix rules are checked below, with the cookie's options
  const given = options.store ?? cookieStore();
  // A fixed store is checked now; one a function gives, the first time it is given.
  const fixed = typeof given === 'function' ? undefined : storeChoice(given);
  const seen = new WeakMap<object, StoreChoice>();
  const storeOf =
    fixed !== undefined
      ? () => fixed
      : (c: Context<any, any>): StoreChoice => {
          const store = (given as FromContext<E, SessionStore | CookieStore>)(c as Context<E, any>);
          let found = typeof store === 'object' && store !== null ? seen.get(store) : undefined;
          if (found === undefined) seen.set(store, (found = storeChoice(store)));
          return found;
        };
  const maxAge = options.maxAge ?? DEFAULT_MAX_AGE;
  if (!(maxAge > 0) || !Number.isFinite(maxAge)) throw new RangeError('session(): maxAge is a positive number of seconds');
  const cookie = options.cookie ?? {};
  // A __Host-/__Secure- name is Secure by definition: 'auto' can't drop it over http.
  const prefixedName = /^__(host|secure)-/i.test(name);
  if (prefixedName && cookie.secure === false) throw new TypeError(`session(): a cookie named ${name} must be Secure`);
  const secure = prefixedName ? true : (cookie.secure ?? 'auto');
  const base: CookieOptions = {
    path: cookie.path ?? '/',
    domain: cookie.domain,
    sameSite: cookie.sameSite ?? 'Lax',
    httpOnly: cookie.httpOnly ?? true,
    partitioned: cookie.partitioned,
  };
  serializeCookie(name, '', { ...base, secure: secure === true || undefined }); // a bad path or domain throws here, at registration
  if (base.sameSite === 'None' && secure === false) throw new TypeError('session(): sameSite "None" needs a Secure cookie');
  if (options.remember !== undefined && (!Number.isInteger(options.remember) || options.remember < 0))
    throw new RangeError('session(): remember is a whole number of cookies (0: decrypt every time)');
  const purpose = `rove/session ${name}`;
  const box = keys === undefined ? undefined : sealer(keys, purpose, { remember: options.remember });
  const boxFor = typeof keysOption === 'function' ? sealerFor(keysOption, purpose, options.remember) : noSealer;
  const config: Config = { name, storeOf, maxAge, base, secure, browserSession: cookie.browserSession === true, box, boxFor };

  const layer: Handler<E> = async (c, next) => {
    const s = new Session({ load: () => load(c, config) });
    c.set(SESSION_KEY as never, s as never);
    await next();
    // A session only read (the common case) has nothing to save: no call, no promise to wait on.
    if (sessionInternals.changed(s)) await commit(c, s, config);
  };
  return named('session', layer);
}

/** A store, and whether it is the cookie itself. */
interface StoreChoice {
  store: SessionStore | CookieStore;
  inCookie: boolean;
}

function storeChoice(store: SessionStore | CookieStore): StoreChoice {
  const inCookie = typeof store === 'object' && store !== null && isCookieStore(store);
  if (!inCookie && (typeof store?.get !== 'function' || typeof store.set !== 'function' || typeof store.delete !== 'function'))
    throw new TypeError('session(): store must be cookieStore(), memoryStore(), kvStore(…) or an object with get, set and delete');
  return { store, inCookie };
}

interface Config {
  name: string;
  storeOf: (c: Context<any, any>) => StoreChoice;
  maxAge: number;
  base: CookieOptions;
  secure: boolean | 'auto';
  browserSession: boolean;
  /** The sealer of fixed keys, made at registration. */
  box: Sealer | undefined;
  /** The sealer of the keys a `keys` function gives for this request. */
  boxFor: (c: Context<any, any>) => Promise<Sealer>;
}

const noSealer = (): Promise<Sealer> => Promise.reject(new Error('session(): no keys'));

/**
 * A `keys` function's sealer for a request. A sealer (its derived AES keys, its memory of
 * opened cookies) is kept per key list, so the same secrets on every request are derived once
 * per isolate, and a rotated list gets a sealer of its own.
 */
function sealerFor(keys: FromContext<any, SessionKeys | Promise<SessionKeys>>, purpose: string, remember: number | undefined) {
  const problems = new ConfigProblems();
  const sealers = new Derived<readonly string[], Sealer>(MAX_KEY_LISTS, (list) => {
    try {
      return sealer(checkSecrets(list, 'session()'), purpose, { remember });
    } catch (error) {
      throw problems.error(`${(error as Error).message} (from the keys function)`);
    }
  });
  return async (c: Context<any, any>): Promise<Sealer> => {
    let given: unknown;
    try {
      given = await keys(c);
    } catch (error) {
      throw problems.failed('session(): keys(c)', error);
    }
    const list = asList(given);
    if (list === null || list.length === 0 || list.some((k) => typeof k !== 'string' || k === ''))
      throw problems.error('session(): keys(c) gave no secret, or an empty one: is the variable set (wrangler secret put, or the environment)?');
    return sealers.get(JSON.stringify(list), list as readonly string[]);
  };
}

/** What a saved session holds: the values, the CSRF secret and the expiry (epoch ms). */
interface Saved {
  d: Record<string, unknown>;
  c?: string;
  e: number;
}

async function load(c: Context<any, any>, config: Config): Promise<LoadedSession | null> {
  // Keys from a function are resolved even without a cookie: a missing secret fails the first
  // request that uses a session, not only the first one that saves it.
  const box = config.box ?? (await config.boxFor(c));
  // One cookie, read once: no record of every cookie, no per-request cache entry (getCookie's).
  const value = findCookie(c.req.header('cookie') ?? null, config.name);
  // Longer than any cookie this middleware writes: not ours, and not worth a decryption.
  if (!value || value.length > MAX_COOKIE_SIZE) return null;
  const opened = await box.unseal(value);
  if (opened === null) return null;
  const { store, inCookie } = config.storeOf(c);
  if (inCookie) return parse(opened, undefined);
  // A server store: the cookie holds the id.
  const stored = await (store as SessionStore).get(opened, c);
  return typeof stored === 'string' ? parse(stored, opened) : null;
}

/** A saved session, or null when it is malformed or expired. Keys become Map keys: `__proto__` is data, never a prototype. */
function parse(text: string, id: string | undefined): LoadedSession | null {
  let saved: Saved;
  try {
    saved = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof saved !== 'object' || saved === null || typeof saved.e !== 'number' || saved.e <= Date.now()) return null;
  if (typeof saved.d !== 'object' || saved.d === null || Array.isArray(saved.d)) return null;
  if (saved.c !== undefined && typeof saved.c !== 'string') return null;
  // Own keys into the Map one by one: cheaper than building it from Object.entries' pairs.
  const data = new Map<string, unknown>();
  const values = saved.d;
  for (const key of Object.keys(values)) data.set(key, values[key]);
  return { id, data, csrf: saved.c };
}

async function commit(c: Context<any, any>, s: Session, config: Config): Promise<void> {
  const state = sessionInternals.state(s);
  // Only read: no cookie to send, no store to update, nothing to tell listeners.
  if (!state.dirty && !state.destroyed && state.obsolete.length === 0) return;
  // A load that failed already answered (its error went through onError): nothing to save.
  const ok = await state.loading?.then(
    () => true,
    () => false,
  );
  if (!ok) return;
  const chosen = config.storeOf(c);
  const store = chosen.inCookie ? null : (chosen.store as SessionStore);
  if (store !== null) for (const id of state.obsolete) await store.delete(id, c);
  let header: string | undefined;
  if (state.dirty) {
    const box = config.box ?? (await config.boxFor(c));
    const { data, csrf } = sessionInternals.record(s);
    const saved: Saved = { d: toObject(data), e: Date.now() + config.maxAge * 1000 };
    if (csrf !== undefined) saved.c = csrf;
    let json: string;
    try {
      json = JSON.stringify(saved);
    } catch (error) {
      throw new TypeError(`Session values must be JSON (strings, numbers, booleans, null, arrays, plain objects): ${(error as Error).message}`);
    }
    let value: string;
    if (store === null) {
      // Checked before sealing: sealing adds a third, so a session this long can never fit.
      if (json.length > MAX_COOKIE_SIZE) throw new SessionTooLargeError(encoder.encode(json).length);
      value = await box.seal(json);
    } else {
      const id = state.id ?? newId();
      await store.set(id, json, config.maxAge, c);
      sessionInternals.setId(s, id);
      value = await box.seal(id);
    }
    header = serializeCookie(config.name, value, cookieOptions(c, config, config.browserSession ? undefined : config.maxAge));
    const size = config.name.length + 1 + value.length;
    if (size > MAX_COOKIE_SIZE) throw new SessionTooLargeError(size);
  } else if (state.destroyed && getCookie(c, config.name) !== undefined) {
    header = serializeCookie(config.name, '', { ...cookieOptions(c, config, 0), expires: new Date(0) });
  }
  if (header !== undefined) appendCookie(c, header);
  const kind = store === null ? 'cookie' : 'server';
  if (state.destroyed) c.emit('session:destroyed', () => ({ store: kind, path: c.req.path }));
  if (state.dirty && (!state.existing || state.regenerated))
    c.emit('session:created', () => ({ store: kind, reason: state.regenerated ? 'regenerated' : 'new', path: c.req.path }));
}

function cookieOptions(c: Context<any, any>, config: Config, maxAge: number | undefined): CookieOptions {
  const secure = config.secure === 'auto' ? c.req.protocol === 'https' : config.secure;
  return { ...config.base, secure: secure || undefined, maxAge };
}

/** Add a Set-Cookie to the response, copying it first when its headers are immutable (a fetch() response). */
function appendCookie(c: Context<any, any>, header: string): void {
  try {
    c.res.headers.append('set-cookie', header);
  } catch {
    // A WebSocket upgrade (101) cannot be copied without losing its socket: it goes without the cookie.
    if (c.res.status === 101) return;
    c.res = new Response(c.res.body, c.res);
    c.res.headers.append('set-cookie', header);
  }
}

/** A session id: 256 random bits. */
function newId(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
