// `c.render`: one method on the context prototype, installed when rove/views loads, so apps
// without views do not carry it (the core only types it). Built on the public helpers.
import { Context, internals, type RenderOptions } from '../context.ts';

const HTML_TYPE = 'text/html; charset=utf-8';

function render(this: Context<any, any>, name: string, data?: unknown, options?: RenderOptions): Response | Promise<Response> {
  const views = internals.config(this).views;
  if (!views) throw new Error('c.render needs views: new App({ views })');
  const status = options?.status;
  const headers = options?.headers;
  if (options?.stream) {
    // Text/html unless the handler set a content type itself, as c.html does.
    const typed = internals.pendingHeaders(this)?.['content-type'] !== undefined;
    return this.body(views.stream(name, data), status, typed ? headers : { 'content-type': HTML_TYPE, ...headers });
  }
  const now = views.renderReady?.(name, data);
  if (now !== undefined) return this.html(now, status, headers);
  return views.render(name, data).then((html) => this.html(html, status, headers));
}

if (!Object.hasOwn(Context.prototype, 'render')) {
  Object.defineProperty(Context.prototype, 'render', { configurable: true, writable: true, value: render });
}
