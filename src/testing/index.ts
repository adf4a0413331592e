/**
 * rove/testing: helpers for tests. `app.request()` is always there; `request(app, …)` is the
 * same call as a function.
 */
import type { App } from '../core/app.ts';
import type { ExecutionContext } from '../core/context.ts';

/**
 * Send one request to an app, without a server: the same as `app.request(input, init, env, ctx)`.
 *
 * @example
 * import { request } from 'rove/testing';
 * const res = await request(app, '/users/1');
 */
export function request(app: App<any>, input: string | URL | Request, init?: RequestInit, env?: unknown, ctx?: ExecutionContext): Promise<Response> {
  return app.request(input, init, env as never, ctx);
}
