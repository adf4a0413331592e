/**
 * `app.request()`, for tests: `import 'rove/testing'` once puts it on every app, so a deployed
 * app does not carry it.
 */
import { App } from './app.ts';
import type { ExecutionContext } from './context.ts';

App.prototype.request = async function request(
  this: App<any>,
  input: string | URL | Request,
  init?: RequestInit,
  env?: unknown,
  ctx?: ExecutionContext,
): Promise<Response> {
  // A path is what tests write most; a bare `new Request('/x')` would throw outside a browser.
  // A new Request (a copy, for a Request given) has headers of its own to set.
  const request = new Request(typeof input === 'string' && input.startsWith('/') ? `http://localhost${input}` : input, init);
  // A server always sees a Host; handlers and rules that compare origins read it.
  if (!request.headers.has('host')) request.headers.set('host', new URL(request.url).host);
  const res = await this.handle(request, env ?? {}, ctx, undefined);
  return request.method === 'HEAD' && res.body !== null ? new Response(null, res) : res;
};
