// The bare-runtime peer for fetch-style runtimes (Deno.serve, Bun.serve,
// deno serve, workerd): routed by hand, responses built by hand. It does the
// same work as the framework apps (JSON.stringify per request, zod for
// /params) so that the ratios measure the framework, not the data.

import { decodeJwtPayload, RateLimiter, RingLog, requestId } from '../shared/chain.ts';
import { cpuWork, fortunesForRequest, nestedUser, POWERED_BY } from '../shared/fixtures.ts';
import { eachMeta, escapeHtml, FILTER_ITEMS, filterList, fortunesPage, ITEMS_0_49 } from '../shared/html.ts';
import { paramsSchema, validationProblem } from '../shared/schema.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const TEXT_TYPE = { 'content-type': 'text/plain; charset=utf-8' };
const HTML_TYPE = { 'content-type': 'text/html; charset=utf-8' };

const log = new RingLog();
const limiter = new RateLimiter();

function json(value: unknown, status = 200, headers: Record<string, string> = JSON_TYPE): Response {
  return new Response(JSON.stringify(value), { status, headers });
}

function html(body: string): Response {
  return new Response(body, { headers: HTML_TYPE });
}

async function readJson(req: Request): Promise<unknown> {
  try {
    return await req.json();
  } catch {
    return undefined;
  }
}

const BAD_JSON = () =>
  json({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'invalid JSON body' }, 400, { 'content-type': 'application/problem+json' });

function chain(req: Request, path: string): Response {
  const id = requestId(req.headers.get('x-request-id'));
  log.push({ t: Date.now(), method: req.method, path, id });
  const claims = decodeJwtPayload(req.headers.get('authorization'));
  if (!claims) return json({ title: 'Unauthorized', status: 401 }, 401);
  if (!limiter.allow(String(claims.sub), Date.now())) return json({ title: 'Too Many Requests', status: 429 }, 429);
  return json({ hello: 'chain', sub: claims.sub }, 200, { 'content-type': 'application/json', 'x-request-id': id, 'x-powered-by': POWERED_BY });
}

export function handle(req: Request): Response | Promise<Response> {
  // Scan the URL string instead of building a URL object: the ceiling should be cheap.
  const url = req.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const q = url.indexOf('?', start);
  const path = q < 0 ? url.slice(start) : url.slice(start, q);

  if (req.method === 'GET') {
    switch (path) {
      case '/test':
        return json({ hello: 'world!' });
      case '/text':
        return new Response('Hello world', { headers: TEXT_TYPE });
      case '/test-cpu':
        return json({ hello: 'cpu', value: cpuWork() });
      case '/json-nested':
        return json(nestedUser());
      case '/chain':
        return chain(req, path);
      case '/test-view':
        return html(`Hello ${escapeHtml('World')}.`);
      case '/test-view-include':
        return html(`Hello ${escapeHtml('Nea')}.`);
      case '/test-view-each-meta':
        return html(eachMeta(ITEMS_0_49));
      case '/test-view-filter':
        return html(filterList(FILTER_ITEMS));
      case '/test-view-expr': {
        const data: { user?: { name?: string; isAdmin?: boolean } } = { user: { name: 'Nea', isAdmin: true } };
        return html(`Hello ${escapeHtml(data.user?.name ?? 'Guest')}.\n${data.user?.isAdmin ? 'ADMIN' : 'USER'}\nSum=${1 + 2 * 3}`);
      }
      case '/fortunes':
        return html(fortunesPage(fortunesForRequest()));
    }
    if (path.startsWith('/id/') && path.indexOf('/', 4) < 0) {
      const name = new URLSearchParams(q < 0 ? '' : url.slice(q + 1)).get('name');
      return new Response(`${decodeURIComponent(path.slice(4))} ${name}`, {
        headers: { 'content-type': 'text/plain; charset=utf-8', 'x-powered-by': POWERED_BY },
      });
    }
  } else if (req.method === 'POST') {
    if (path === '/json') {
      return readJson(req).then((body) => (body === undefined ? BAD_JSON() : json(body)));
    }
    if (path === '/params') {
      return readJson(req).then((body) => {
        if (body === undefined) return BAD_JSON();
        const result = paramsSchema.safeParse(body);
        if (!result.success) return json(validationProblem(result.error.issues), 400, { 'content-type': 'application/problem+json' });
        return json(result.data);
      });
    }
  }
  return new Response('Not Found', { status: 404, headers: TEXT_TYPE });
}
