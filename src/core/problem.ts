// The problem+json answers (RFC 9457): to an error the app answers, and to one that escaped it.
import { describeError, HttpError } from './errors.ts';
import { appendHeaders } from './response.ts';

/**
 * The default error response: RFC 9457 problem+json, for every client. A 5xx shows its
 * message and stack only in dev mode. A browser's HTML page comes from the app's `errorPage`
 * option (rove/error-page).
 *
 * @example
 * app.onError((err) => errorResponse(err)); // the answer the app gives without onError
 * return errorResponse(new HttpError(409, 'Already exists'));
 */
export function errorResponse(error: unknown, dev = false): Response {
  const problem = problemOf(error, dev);
  // Headers set on the response, not passed in the init: cheaper on Deno (see buildResponse).
  const res = new Response(problem.body, { status: problem.status });
  const headers = res.headers;
  if (problem.extra !== undefined) appendHeaders(headers, problem.extra);
  headers.set('content-type', PROBLEM_TYPE);
  headers.set('content-length', String(problem.body.byteLength));
  return res;
}

const PROBLEM_TYPE = 'application/problem+json';
const encoder = new TextEncoder();

/**
 * The parts of the problem+json answer to an error: its status, its body as bytes (so its length
 * is known, and sent, on every runtime, HEAD included) and the headers the HttpError carries.
 */
function problemOf(error: unknown, dev: boolean): { status: number; body: Uint8Array<ArrayBuffer>; extra: HeadersInit | undefined } {
  const { http, status, title, detail } = describeError(error, dev);
  const problem: Record<string, unknown> = { type: 'about:blank', title, status };
  if (detail !== undefined) problem.detail = detail;
  if (http?.details) Object.assign(problem, http.details);
  if (dev && error instanceof Error && error.stack) problem.stack = error.stack;
  return { status, body: encoder.encode(JSON.stringify(problem)), extra: http?.headers };
}

/**
 * The problem+json answer built by the context's own helper, so an adapter's response factory
 * builds it as it builds any other (Node's light response, with its length). Headers set with
 * `c.header()` are kept.
 */
export function problemAnswer(
  c: { body(data: BodyInit | null, status?: number, headers?: Record<string, string>): Response },
  error: unknown,
  dev: boolean,
): Response {
  const problem = problemOf(error, dev);
  // The length named too: a HEAD of an error keeps it where a runtime would drop it with the body.
  const headers: Record<string, string> = { 'content-type': PROBLEM_TYPE, 'content-length': String(problem.body.byteLength) };
  if (problem.extra !== undefined) {
    // Repeated names (a second Set-Cookie) cannot sit in the helper's record: the general path then.
    const pairs = [...new Headers(problem.extra)];
    if (new Set(pairs.map(([k]) => k)).size !== pairs.length) return errorResponse(error, dev);
    for (const [k, v] of pairs) headers[k] = v;
  }
  return c.body(problem.body, problem.status, headers);
}

/**
 * The answer to anything that escaped the app, the same on every runtime:
 * problem+json 500 with no message. Given an error (dev mode only), it shows it.
 */
export function internalError(devError?: unknown): Response {
  if (devError !== undefined) {
    try {
      return errorResponse(devError, true);
    } catch {
      // fall through to the plain answer
    }
  }
  return errorResponse(new HttpError(500));
}
