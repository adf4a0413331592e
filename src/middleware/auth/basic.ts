import type { Handler } from '../../compose.ts';
import type { Context } from '../../context.ts';
import { timingSafeEqual } from '../../timing-safe.ts';
import { checkRealm, unauthorized } from './challenge.ts';

export type BasicAuthOptions = {
  /** Shown by the browser's login prompt. Default `Restricted`. */
  realm?: string;
} & (
  | { username: string; password: string; verify?: never }
  | { verify: (username: string, password: string, c: Context<any, any>) => boolean | Promise<boolean>; username?: never; password?: never }
);

/** Longer Authorization headers are refused unread. */
const MAX_HEADER = 4096;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * HTTP Basic authentication (RFC 7617). A request without valid credentials gets 401 with
 * `WWW-Authenticate: Basic realm="…", charset="UTF-8"`, which makes a browser ask for them.
 * The username and password are compared in constant time. On success, `c.get('basicAuthUser')`
 * holds the username. Basic auth sends the password with every request: use it over https only.
 *
 * @example
 * app.use('/admin', basicAuth({ username: 'admin', password: env.ADMIN_PASSWORD }));
 * app.use('/ops', basicAuth({ verify: (user, pass) => checkAgainstYourStore(user, pass) }));
 */
export function basicAuth(options: BasicAuthOptions): Handler {
  const realm = checkRealm(options.realm ?? 'Restricted', 'basicAuth()');
  const challenge = `Basic realm="${realm}", charset="UTF-8"`;
  let verify: (username: string, password: string, c: Context<any, any>) => boolean | Promise<boolean>;
  if (typeof options.verify === 'function') verify = options.verify;
  else {
    const { username, password } = options;
    if (typeof username !== 'string' || typeof password !== 'string' || password === '')
      throw new TypeError('basicAuth() needs { username, password } (a non-empty password) or { verify }');
    if (username.includes(':')) throw new TypeError('basicAuth(): a username cannot contain ":"');
    verify = async (u, p) => {
      // Both compared every time: which one was wrong takes no different time.
      const [user, pass] = await Promise.all([timingSafeEqual(u, username), timingSafeEqual(p, password)]);
      return user && pass;
    };
  }
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined || !/^basic /i.test(header)) unauthorized(c, 'basic', 'missing', challenge, 'Authentication required');
    const credentials = header.length > MAX_HEADER ? null : parse(header.slice(6).trim());
    if (credentials === null) unauthorized(c, 'basic', 'malformed', challenge, 'Malformed Basic credentials');
    if (!(await verify(credentials[0], credentials[1], c))) unauthorized(c, 'basic', 'invalid', challenge, 'Invalid username or password');
    c.set('basicAuthUser' as never, credentials[0] as never);
    await next();
  };
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
