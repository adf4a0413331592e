// How spans and metrics describe a request's method and a failure, the same everywhere.

import { type Span, SpanStatusCode } from '@opentelemetry/api';
import { HttpError } from '../core/errors.ts';

/**
 * `error.type` for a failure: the thrown error's name (`TypeError`), or the status code as a
 * string when an HttpError or no error at all made the answer.
 */
export function failed(error: unknown, status: number): string {
  return error instanceof Error && !(error instanceof HttpError) ? error.name : String(status);
}

/** Mark `span` failed: status ERROR, `error.type`, and an exception event for a thrown Error. */
export function recordFailure(span: Span, error: unknown, errorType: string): void {
  span.setAttribute('error.type', errorType);
  if (error instanceof Error) {
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  } else {
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

// The methods the HTTP conventions name; anything else is `_OTHER`, so a client sending made-up
// methods cannot grow the metric's series or the span names without bound.
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE', 'QUERY']);

/** `http.request.method`: the method, or `_OTHER` for one the conventions do not name. */
export function methodOf(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}
