/**
 * `app.request()`, for tests: `import 'rove/testing'` once puts it on every app, so a deployed
 * app does not carry it. `request(app, …)` is the same as a function.
 */
import { App } from './app.ts';
import type { ExecutionContext } from './context.ts';

/**
 * Send one request to an app, without a server: `input` is a path (sent to `http://localhost`),
 * a full URL or a `Request`; `init` is fetch's. The request carries a `Host` header from its URL
 * unless it names one. Without `env`, handlers see an empty env. A HEAD request answers without a
 * body, as a server would send it.
 *
 * @example
 * import { request } from 'rove/testing';
 * const res = await request(app, '/users/1');
 */
export async function request(app: App<any>, input: string | URL | Request, init?: RequestInit, env?: unknown, ctx?: ExecutionContext): Promise<Response> {
  // A path is what tests write most; a bare `new Request('/x')` would throw outside a browser.
  // A new Request (a copy, for a Request given) has headers of its own to set.
  const req = new Request(typeof input === 'string' && input.startsWith('/') ? `http://localhost${input}` : input, init);
  // A server always sees a Host; handlers and rules that compare origins read it.
  if (!req.headers.has('host')) req.headers.set('host', new URL(req.url).host);
  const res = await app.handle(req, env ?? {}, ctx, undefined);
  return req.method === 'HEAD' && res.body !== null ? new Response(null, res) : res;
}

App.prototype.request = function (this: App<any>, input: string | URL | Request, init?: RequestInit, env?: unknown, ctx?: ExecutionContext) {
  return request(this, input, init, env, ctx);
};
