import type { Context } from './context.ts';
import { HttpError } from './errors.ts';

/**
 * The default report of an error that escaped a handler or middleware: one `console.error`
 * (which every runtime, and `wrangler tail` on Workers, collects) with the method, the path,
 * the request id when `requestId()` set one, and the error with its stack. An `HttpError` under
 * 500 is the client's, not a fault: it is not logged. `app.onError` replaces this.
 *
 * @example
 * logEscaped(new Error('db down'), c); // rove: GET /users/7 failed: Error: db down\n    at …
 */
export function logEscaped(error: unknown, c: Context<any, any>): void {
  if (error instanceof HttpError && error.status < 500) return;
  let where = '';
  try {
    const id = (c.get as (key: string) => unknown)('requestId');
    where = `${c.req.method} ${c.path}${typeof id === 'string' ? ` (request ${id})` : ''}`;
  } catch {
    where = c.path;
  }
  console.error(`rove: ${where} failed:`, error);
}
