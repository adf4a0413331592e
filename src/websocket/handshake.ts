// The checks a WebSocket route makes before it agrees to upgrade (RFC 6455 §4.2.1),
// the same on every runtime, so a refusal looks the same everywhere.
import type { Context } from '../core/context.ts';

/** Who may open a socket from a browser, besides pages of the server's own host. */
export type AllowedOrigins = readonly string[] | '*' | ((origin: string, c: Context<any, any>) => boolean);

/** Whether a comma-separated header holds `token` (case-insensitive). */
export function hasToken(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  for (const part of header.split(',')) if (part.trim().toLowerCase() === token) return true;
  return false;
}

/** A Sec-WebSocket-Key is 16 random bytes in base64: 22 characters and `==`. */
export function validKey(key: string | undefined): boolean {
  return key !== undefined && /^[A-Za-z0-9+/]{22}==$/.test(key.trim());
}

/**
 * Whether a browser page at `origin` may open the socket. No Origin (not a browser, or a
 * same-origin request from an old one) passes; a page on the request's own host passes;
 * anything else only through `allowed`. This is what stops cross-site WebSocket hijacking:
 * cookies go with a cross-site upgrade, so the page's origin is the only tell.
 * `upgradeWebSocket` applies it; use it yourself where a route hands the upgrade on (a Durable Object).
 *
 * @example
 * if (!originAllowed(c.req.header('origin'), c, ['https://app.example'])) throw new HttpError(403);
 */
export function originAllowed(origin: string | undefined, c: Context<any, any>, allowed: AllowedOrigins | undefined): boolean {
  if (origin === undefined) return true;
  if (allowed === '*') return true;
  let host: string | undefined;
  try {
    const u = new URL(origin);
    if (u.protocol === 'http:' || u.protocol === 'https:') host = u.host;
  } catch {
    // "null" (sandboxed frames, file: pages) and garbage: never the server's own origin
  }
  if (host !== undefined && host === requestHost(c)) return true;
  if (allowed === undefined) return false;
  if (typeof allowed === 'function') return allowed(origin, c) === true;
  const normal = origin.toLowerCase();
  return allowed.some((o) => o.toLowerCase() === normal);
}

/** The host (and port) the client asked for, lower-case, as `URL.host` writes it. */
function requestHost(c: Context<any, any>): string | undefined {
  try {
    return new URL(c.req.url).host;
  } catch {
    return undefined;
  }
}

/** The first subprotocol the client offers that the route accepts. */
export function chooseProtocol(offered: string | undefined, accepted: readonly string[] | undefined): string | undefined {
  if (offered === undefined || accepted === undefined || accepted.length === 0) return undefined;
  for (const part of offered.split(',')) {
    const p = part.trim();
    if (accepted.includes(p)) return p;
  }
  return undefined;
}
