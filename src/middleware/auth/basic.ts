import type { Handler } from '../../core/compose.ts';
import type { Context, Env } from '../../core/context.ts';
import { ConfigProblems, type FromContext } from '../../core/from-context.ts';
import { named } from '../../core/named.ts';
import { timingSafeEqual } from '../../http/timing-safe.ts';
import { checkRealm, unauthorized } from './challenge.ts';

/** A username or password: fixed, or a function of the context (`(c) => c.env.ADMIN_PASSWORD`). */
export type BasicCredential<E extends Env = any> = string | FromContext<E, string | Promise<string>>;

export type BasicAuthOptions<E extends Env = any> = {
  /** Shown by the browser's login prompt. Default `Restricted`. */
  realm?: string;
  /** Called once the credentials are accepted, before the next handler: load the user, log the login. May be async. */
  onAuthSuccess?: (c: Context<E, any, any>, username: string) => void | Promise<void>;
} & (
  | { username: BasicCredential<E>; password: BasicCredential<E>; verify?: never }
  | {
      /**
       * Decide yourself, instead of fixed credentials: true lets the request in; anything else refuses
       * it. May be async. Comparing in constant time is the verifier's job (hash the password with a
       * slow KDF and compare the hashes, or use `timingSafeEqual`), as is limiting attempts.
       */
      verify: (username: string, password: string, c: Context<E, any, any>) => boolean | Promise<boolean>;
      username?: never;
      password?: never;
    }
);

/** Longer Authorization headers are refused unread. */
const MAX_HEADER = 4096;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * HTTP Basic authentication (RFC 7617). A request without valid credentials gets 401 with
 * `WWW-Authenticate: Basic realm="…", charset="UTF-8"`, which makes a browser ask for them.
 * The username and password are compared in constant time. On success, `c.get('basicAuthUser')`
 * holds the username. Basic auth sends the password with every request: use it over https only.
 * The username and password may be functions of the context, for a password kept in `c.env`
 * (Workers); a function that gives no password fails the request with a 500, never lets it in.
 * With `verify`, you decide (constant time is then your verifier's job); `onAuthSuccess` runs
 * after a successful check.
 *
 * @example
 * app.use('/admin', basicAuth({ username: 'admin', password: process.env.ADMIN_PASSWORD! }));
 * app.use('/admin', basicAuth({ username: 'admin', password: (c) => c.env.ADMIN_PASSWORD }));
 * app.use('/ops', basicAuth({
 *   verify: async (user, pass, c) => checkAgainstYourStore(user, pass),
 *   onAuthSuccess: (c, user) => c.set('user', user),
 * }));
 */
export function basicAuth<E extends Env = any>(options: BasicAuthOptions<E>): Handler<E> {
  const realm = checkRealm(options.realm ?? 'Restricted', 'basicAuth()');
  const challenge = `Basic realm="${realm}", charset="UTF-8"`;
  const onAuthSuccess = options.onAuthSuccess;
  if (onAuthSuccess !== undefined && typeof onAuthSuccess !== 'function') throw new TypeError('basicAuth(): onAuthSuccess must be a function');
  let verify: (username: string, password: string, c: Context<any, any>, expected: Pair | undefined) => boolean | Promise<boolean>;
  // The username and password a function gives, for a request; undefined when both are fixed.
  let expectedFor: ((c: Context<any, any>) => Promise<Pair>) | undefined;
  if (typeof options.verify === 'function') verify = options.verify;
  else {
    const { username, password } = options;
    if (typeof username !== 'function' && typeof password !== 'function') check(username, password, (message) => new TypeError(message));
    else if (!isCredential(username) || !isCredential(password))
      throw new TypeError('basicAuth() needs { username, password } (a non-empty password) or { verify }');
    else expectedFor = resolver(username, password);
    const fixed: Pair = [username as string, password as string];
    verify = async (u, p, _c, expected = fixed) => {
      // Both compared every time: which one was wrong takes no different time.
      const [user, pass] = await Promise.all([timingSafeEqual(u, expected[0]), timingSafeEqual(p, expected[1])]);
      return user && pass;
    };
  }
  const layer: Handler<E> = async (c, next) => {
    // Resolved before the credentials are read: a missing password fails every request (500), never only some.
    const expected = expectedFor === undefined ? undefined : await expectedFor(c);
    const header = c.req.header('authorization');
    if (header === undefined || !/^basic /i.test(header)) unauthorized(c, 'basic', 'missing', challenge, 'Authentication required');
    const credentials = header.length > MAX_HEADER ? null : parse(header.slice(6).trim());
    if (credentials === null) unauthorized(c, 'basic', 'malformed', challenge, 'Malformed Basic credentials');
    // Only `true` lets in: a verifier answering a truthy string or object by mistake does not.
    if ((await verify(credentials[0], credentials[1], c, expected)) !== true) unauthorized(c, 'basic', 'invalid', challenge, 'Invalid username or password');
    c.set('basicAuthUser' as never, credentials[0] as never);
    await onAuthSuccess?.(c, credentials[0]);
    await next();
  };
  return named('basicAuth', layer);
}

type Pair = readonly [username: string, password: string];

/** The username and password of a request, either of them from a function. Nothing derives from them, so nothing is kept. */
function resolver(username: BasicCredential, password: BasicCredential): (c: Context<any, any>) => Promise<Pair> {
  const problems = new ConfigProblems();
  const resolve = async (option: BasicCredential, name: string, c: Context<any, any>): Promise<unknown> => {
    if (typeof option !== 'function') return option;
    try {
      return await option(c);
    } catch (error) {
      throw problems.failed(`basicAuth(): ${name}(c)`, error);
    }
  };
  return async (c) => {
    const [u, p] = await Promise.all([resolve(username, 'username', c), resolve(password, 'password', c)]);
    check(u, p, (message) => problems.error(`${message}, from a function of the context: is the variable set?`));
    return [u as string, p as string];
  };
}

function isCredential(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'function';
}

/** A username and password fit to compare with: a non-empty password, no ":" in the username. */
function check(username: unknown, password: unknown, refuse: (message: string) => Error): void {
  if (typeof username !== 'string' || typeof password !== 'string' || password === '')
    throw refuse('basicAuth() needs { username, password } (a non-empty password) or { verify }');
  if (username.includes(':')) throw refuse('basicAuth(): a username cannot contain ":"');
}

/** `user:password` from base64 (UTF-8), or null. */
function parse(encoded: string): [string, string] | null {
  let binary: string;
  try {
    binary = atob(encoded);
  } catch {
    return null;
  }
  let text: string;
  try {
    text = decoder.decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
  } catch {
    return null;
  }
  const colon = text.indexOf(':');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (colon === -1 || /[\u0000-\u001f\u007f]/.test(text)) return null;
  return [text.slice(0, colon), text.slice(colon + 1)];
}
