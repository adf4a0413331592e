import type { Context } from './context.ts';
import { HttpError } from './errors.ts';

/** Errors the default report leaves out: answers given on purpose, and what follows from them. */
const unreported = new WeakSet<object>();

/**
 * Mark an error that the default report (`logEscaped`) leaves out, for middleware whose error is
 * an answer, not a fault: timeout() marks its 504 and the reason it aborts the signal with, so a
 * handler that stops on that signal (a fetch rejected with the reason) is not reported either.
 * An error whose `cause` is marked is left out too (a driver that wraps the abort reason).
 */
export function leaveUnreported<T extends object>(error: T): T {
  unreported.add(error);
  return error;
}

function isUnreported(error: unknown): boolean {
  // The error itself, or up to three causes down: a driver that wraps the abort reason.
  for (let e = error, depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++, e = (e as { cause?: unknown }).cause) {
    if (unreported.has(e)) return true;
  }
  return false;
}

/**
 * The default report of an error that escaped a handler or middleware: one `console.error`
 * (which every runtime, and `wrangler tail` on Workers, collects) with the method, the path,
 * the request id when `requestId()` set one, the trace and span ids when `otel(app)` traces the
 * request, and the error with its stack. An `HttpError` under
 * 500 is the client's, not a fault: it is not logged; nor is an error marked `leaveUnreported`
 * (timeout()'s 504 and its abort reason). `app.onError` replaces this.
 *
 * @example
 * logEscaped(new Error('db down'), c); // rove: GET /users/7 failed: Error: db down\n    at …
 */
export function logEscaped(error: unknown, c: Context<any, any>): void {
  if (error instanceof HttpError && error.status < 500) return;
  if (isUnreported(error)) return;
  let where = '';
  try {
    // What leads from the log to the request: requestId()'s id, and the trace that rove/otel started.
    const { requestId: id, traceId: trace, spanId: span } = c.var as Record<string, unknown>;
    where = `${c.req.method} ${c.path}${typeof id === 'string' ? ` (request ${id})` : ''}${typeof trace === 'string' ? ` (trace ${trace}, span ${span})` : ''}`;
  } catch {
    where = c.path;
  }
  console.error(`rove: ${where} failed:`, error);
}
