// The `session-read-redis` scenario's bare peer: the session id from a cookie,
// one Redis GET of its key through the same client Rove's targets use (dev/resp.ts, one
// per process), the JSON parsed and answered. /session-redis/start writes the key and sets the cookie.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RespClient } from '../../dev/resp.ts';
import { RAW_SESSION_COOKIE, REDIS_SESSION_PREFIX, SESSION_DATA } from '../shared/app-layer.ts';

const MAX_AGE_MS = 86_400_000;
const COOKIE_PREFIX = `${RAW_SESSION_COOKIE}=`;

function sessionId(cookie: string | null | undefined): string | undefined {
  if (!cookie) return undefined;
  for (const part of cookie.split(';')) {
    const p = part.trim();
    if (p.startsWith(COOKIE_PREFIX)) return p.slice(COOKIE_PREFIX.length);
  }
  return undefined;
}

async function start(client: RespClient): Promise<string> {
  const id = crypto.randomUUID();
  await client.sendCommand(['SET', REDIS_SESSION_PREFIX + id, JSON.stringify(SESSION_DATA), 'PX', String(MAX_AGE_MS)]);
  return `${COOKIE_PREFIX}${id}; Path=/; HttpOnly; SameSite=Lax`;
}

/** The session's answer body, or null when there is none. */
async function read(client: RespClient, cookie: string | null | undefined): Promise<string | null> {
  const id = sessionId(cookie);
  if (!id) return null;
  const value = await client.sendCommand(['GET', REDIS_SESSION_PREFIX + id]);
  if (typeof value !== 'string') return null;
  const data = JSON.parse(value) as { user?: unknown; visits?: unknown };
  return JSON.stringify({ user: data.user, visits: data.visits });
}

const JSON_TYPE = { 'content-type': 'application/json' };
const UNAUTHORIZED = '{"title":"Unauthorized","status":401}';

/** Fetch-style runtimes: wraps the handler with the two routes when a client is given. */
export function withRedisSession(
  handle: (req: Request, ...rest: any[]) => Response | Promise<Response>,
  client: RespClient | undefined,
): (req: Request, ...rest: any[]) => Response | Promise<Response> {
  if (!client) return handle;
  return (req, ...rest) => {
    const url = req.url;
    const at = url.indexOf('/', url.indexOf('//') + 2);
    const path = url.slice(at);
    if (path === '/session-redis')
      return read(client, req.headers.get('cookie')).then((body) =>
        body === null ? new Response(UNAUTHORIZED, { status: 401, headers: JSON_TYPE }) : new Response(body, { headers: JSON_TYPE }),
      );
    if (path === '/session-redis/start')
      return start(client).then((cookie) => new Response('{"ok":true}', { headers: { ...JSON_TYPE, 'set-cookie': cookie } }));
    return handle(req, ...rest);
  };
}

/** node:http: answers the two routes (true) or leaves the request to the rest (false). */
export function nodeRedisSession(client: RespClient | undefined): (req: IncomingMessage, res: ServerResponse) => boolean {
  if (!client) return () => false;
  return (req, res) => {
    const url = req.url;
    if (url === '/session-redis') {
      read(client, req.headers.cookie).then((body) => {
        const out = body ?? UNAUTHORIZED;
        res.writeHead(body === null ? 401 : 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
        res.end(out);
      });
      return true;
    }
    if (url === '/session-redis/start') {
      start(client).then((cookie) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 11, 'set-cookie': cookie });
        res.end('{"ok":true}');
      });
      return true;
    }
    return false;
  };
}
