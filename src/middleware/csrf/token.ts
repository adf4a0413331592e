// The per-session CSRF token. The session keeps one random secret; each token handed to a
// page is that secret masked with fresh random bytes, so no two pages carry the same text
// (a compressed response then cannot leak it byte by byte, as in the BREACH attack).

import type { Context } from '../../core/context.ts';
import { fromBase64Url, toBase64Url } from '../../http/base64url.ts';
import { timingSafeEqualBytes } from '../../http/timing-safe.ts';
import { getSession, sessionInternals } from '../session/session.ts';

const SECRET_BYTES = 32;
/** A token is the mask and the masked secret: 64 bytes, 86 base64url characters. */
const TOKEN_LENGTH = Math.ceil((SECRET_BYTES * 2 * 4) / 3);

function newSecret(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The session's secret; `create` makes one when the session has none (a token is being handed out). */
async function sessionSecret(c: Pick<Context<any, any>, 'get'>, create: boolean): Promise<Uint8Array | undefined> {
  let s: ReturnType<typeof getSession>;
  try {
    s = getSession(c);
  } catch {
    throw new Error('CSRF tokens live in the session: register app.use(session({ keys })) before csrf() and csrfToken()');
  }
  const secret = await sessionInternals.csrfSecret(s, create ? newSecret : undefined);
  return secret === undefined ? undefined : (fromBase64Url(secret) ?? undefined);
}

/**
 * A CSRF token for this visitor's session, to put in a form's hidden `_csrf` field or send as
 * the `x-csrf-token` header. Each call gives a different text; all of them stay valid for the
 * session. The first call in a session saves a secret into it (so the session cookie is sent).
 *
 * @example
 * app.get('/login', async (c) => c.html(`<form method="post">
 *   <input type="hidden" name="_csrf" value="${await csrfToken(c)}">…</form>`));
 */
export async function csrfToken(c: Pick<Context<any, any>, 'get'>): Promise<string> {
  const secret = (await sessionSecret(c, true)) ?? new Uint8Array(SECRET_BYTES);
  const mask = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  const token = new Uint8Array(SECRET_BYTES * 2);
  token.set(mask);
  for (let i = 0; i < SECRET_BYTES; i++) token[SECRET_BYTES + i] = secret[i] ^ mask[i];
  return toBase64Url(token);
}

/**
 * Whether `token` was made by csrfToken() for this request's session; constant-time in the
 * secret. csrf() calls it; use it directly to check a token that arrives some other way.
 *
 * @example
 * if (!(await verifyCsrfToken(c, message.csrf))) throw new HttpError(403, 'CSRF: bad token');
 */
export async function verifyCsrfToken(c: Pick<Context<any, any>, 'get'>, token: string): Promise<boolean> {
  // The session first: a missing session() is a setup error whatever the token.
  // A session without a secret was never handed a token: nothing can match (and nothing is created).
  const secret = await sessionSecret(c, false);
  if (secret === undefined || secret.length !== SECRET_BYTES || token.length !== TOKEN_LENGTH) return false;
  const bytes = fromBase64Url(token);
  if (bytes === null || bytes.length !== SECRET_BYTES * 2) return false;
  const unmasked = new Uint8Array(SECRET_BYTES);
  for (let i = 0; i < SECRET_BYTES; i++) unmasked[i] = bytes[SECRET_BYTES + i] ^ bytes[i];
  return timingSafeEqualBytes(unmasked, secret);
}
