// The bare node:http peer: no Request/Response objects at all, one writeHead
// and one end per response. The ceiling for Node.
import { createReadStream, stat } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connectFromUrl } from '../../dev/resp.ts';
import { CORS_MAX_AGE, CORS_METHODS, CORS_ORIGIN, PUBLIC_DIR, STATIC_CACHE_CONTROL } from '../shared/app-layer.ts';
import { decodeJwtPayload, RateLimiter, RingLog, requestId } from '../shared/chain.ts';
import { cpuWork, fortunesForRequest, nestedUser, POWERED_BY } from '../shared/fixtures.ts';
import { eachMeta, escapeHtml, FILTER_ITEMS, filterList, fortunesPage, ITEMS_0_49 } from '../shared/html.ts';
import { paramsSchema, validationProblem } from '../shared/schema.ts';
import { etagOf, matches } from './app-layer.ts';
import { nodeDbRoutes } from './db.ts';
import { nodeRedisSession } from './redis.ts';

const log = new RingLog();
const limiter = new RateLimiter();

function send(res: ServerResponse, status: number, type: string, body: string, extra?: Record<string, string>): void {
  const headers: Record<string, string | number> = { 'content-type': type, 'content-length': Buffer.byteLength(body) };
  if (extra) Object.assign(headers, extra);
  res.writeHead(status, headers);
  res.end(body);
}

const json = (res: ServerResponse, value: unknown, status = 200, extra?: Record<string, string>) =>
  send(res, status, 'application/json', JSON.stringify(value), extra);
const html = (res: ServerResponse, body: string) => send(res, 200, 'text/html; charset=utf-8', body);
const badJson = (res: ServerResponse) =>
  send(res, 400, 'application/problem+json', JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'invalid JSON body' }));

function readJson(req: IncomingMessage, then: (value: unknown) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      value = undefined;
    }
    then(value);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const dbRoute = nodeDbRoutes((n) => process.env[n]);
// /static/app.css: a stat for the ETag, then the file streamed (the runtime's own file response, as the other bare peers send it).
const CSS = `${PUBLIC_DIR}/app.css`;
function serveCss(req: IncomingMessage, res: ServerResponse): void {
  stat(CSS, (err, info) => {
    if (err || !info.isFile()) return send(res, 404, 'text/plain; charset=utf-8', 'Not Found');
    const etag = etagOf(info.size, info.mtimeMs);
    if (matches(header(req, 'if-none-match'), etag)) {
      res.writeHead(304, { etag, 'cache-control': STATIC_CACHE_CONTROL });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'text/css; charset=utf-8', 'content-length': info.size, etag, 'cache-control': STATIC_CACHE_CONTROL });
    if (req.method === 'HEAD') return res.end();
    createReadStream(CSS).pipe(res);
  });
}

const PREFLIGHT = {
  'access-control-allow-origin': CORS_ORIGIN,
  'access-control-allow-methods': CORS_METHODS.join(','),
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': String(CORS_MAX_AGE),
  vary: 'Origin',
};

const redisRoute = nodeRedisSession(await connectFromUrl(process.env.REDIS_URL));

const server = createServer((req, res) => {
  if (dbRoute(req, res)) return;
  if (redisRoute(req, res)) return;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);

  if (path === '/static/app.css' && (req.method === 'GET' || req.method === 'HEAD')) return serveCss(req, res);
  if (path === '/api/data' && req.method === 'OPTIONS') {
    res.writeHead(204, header(req, 'origin') === CORS_ORIGIN ? PREFLIGHT : { vary: 'Origin' });
    return res.end();
  }
  if (req.method === 'GET') {
    switch (path) {
      case '/test':
        return json(res, { hello: 'world!' });
      case '/text':
        return send(res, 200, 'text/plain; charset=utf-8', 'Hello world');
      case '/test-cpu':
        return json(res, { hello: 'cpu', value: cpuWork() });
      case '/json-nested':
        return json(res, nestedUser());
      case '/chain': {
        const id = requestId(header(req, 'x-request-id'));
        log.push({ t: Date.now(), method: req.method, path, id });
        const claims = decodeJwtPayload(header(req, 'authorization'));
        if (!claims) return json(res, { title: 'Unauthorized', status: 401 }, 401);
        if (!limiter.allow(String(claims.sub), Date.now())) return json(res, { title: 'Too Many Requests', status: 429 }, 429);
        return json(res, { hello: 'chain', sub: claims.sub }, 200, { 'x-request-id': id, 'x-powered-by': POWERED_BY });
      }
      case '/test-view':
        return html(res, `Hello ${escapeHtml('World')}.`);
      case '/test-view-include':
        return html(res, `Hello ${escapeHtml('Nea')}.`);
      case '/test-view-each-meta':
        return html(res, eachMeta(ITEMS_0_49));
      case '/test-view-filter':
        return html(res, filterList(FILTER_ITEMS));
      case '/test-view-expr': {
        const data: { user?: { name?: string; isAdmin?: boolean } } = { user: { name: 'Nea', isAdmin: true } };
        return html(res, `Hello ${escapeHtml(data.user?.name ?? 'Guest')}.\n${data.user?.isAdmin ? 'ADMIN' : 'USER'}\nSum=${1 + 2 * 3}`);
      }
      case '/fortunes':
        return html(res, fortunesPage(fortunesForRequest()));
    }
    if (path.startsWith('/id/') && path.indexOf('/', 4) < 0) {
      const name = new URLSearchParams(q < 0 ? '' : url.slice(q + 1)).get('name');
      return send(res, 200, 'text/plain; charset=utf-8', `${decodeURIComponent(path.slice(4))} ${name}`, { 'x-powered-by': POWERED_BY });
    }
  } else if (req.method === 'POST') {
    if (path === '/json') return readJson(req, (body) => (body === undefined ? badJson(res) : json(res, body)));
    if (path === '/params') {
      return readJson(req, (body) => {
        if (body === undefined) return badJson(res);
        const result = paramsSchema.safeParse(body);
        if (!result.success) return send(res, 400, 'application/problem+json', JSON.stringify(validationProblem(result.error.issues)));
        json(res, result.data);
      });
    }
  }
  send(res, 404, 'text/plain; charset=utf-8', 'Not Found');
});

server.listen(Number(process.env.PORT ?? 8000), process.env.HOST ?? '127.0.0.1');
