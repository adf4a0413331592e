import { appendHeaders } from './response.ts';

/** An error that carries the HTTP status to answer with. */
export class HttpError extends Error {
  // `declare`: set in the constructor, so no field initialisers are emitted for them.
  declare readonly status: number;
  declare readonly headers: HeadersInit | undefined;
  /** Extra RFC 9457 members, e.g. `errors` listing validation issues. */
  declare readonly details: Record<string, unknown> | undefined;
  /** Whether the message may be shown to the client; defaults to status < 500. */
  declare readonly expose: boolean;

  constructor(status: number, message?: string, options: { cause?: unknown; headers?: HeadersInit; details?: Record<string, unknown>; expose?: boolean } = {}) {
    super(message ?? STATUS_TEXT[status] ?? 'Error', options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.status = status >= 400 && status <= 599 ? status : 500;
    this.headers = options.headers;
    this.details = options.details;
    this.expose = options.expose ?? this.status < 500;
  }
}

/** Why a request body was refused; `body:rejected` events carry it. */
export type BodyRejection = 'too-large' | 'invalid' | 'unsupported-type';

/** An HttpError about the request body (413, 415, or 400 for a body that does not parse or validate). */
export class BodyError extends HttpError {
  constructor(
    readonly reason: BodyRejection,
    status: number,
    message: string,
    options?: { headers?: HeadersInit; details?: Record<string, unknown> },
  ) {
    super(status, message, options);
  }
}

/** The reason phrase of an HTTP error status (`404` → `Not Found`), for problem+json titles and default messages. */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** What an error answer shows: its status, the status's title, and the message when it may be shown. */
export function describeError(error: unknown, dev: boolean): { http: HttpError | null; status: number; title: string; detail: string | undefined } {
  const http = error instanceof HttpError ? error : null;
  const status = http ? http.status : 500;
  const title = STATUS_TEXT[status] ?? 'Error';
  const message = (dev || http?.expose) && error instanceof Error ? error.message : undefined;
  return { http, status, title, detail: message === title ? undefined : message };
}

/**
 * The default error response: RFC 9457 problem+json, for every client. A 5xx shows its
 * message and stack only in dev mode. (`accept` is kept for callers of 0.1: a browser's
 * HTML page comes from the app's `errorPage` option, see rove/error-page.)
 *
 * @example
 * return errorResponse(new HttpError(409, 'Already exists'), null, false);
 */
export function errorResponse(error: unknown, _accept?: string | null, dev = false, instance?: string): Response {
  const problem = problemOf(error, dev, instance);
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
export function problemOf(error: unknown, dev: boolean, instance?: string): { status: number; body: Uint8Array<ArrayBuffer>; extra: HeadersInit | undefined } {
  const { http, status, title, detail } = describeError(error, dev);
  const problem: Record<string, unknown> = { type: 'about:blank', title, status };
  if (detail !== undefined) problem.detail = detail;
  if (instance !== undefined) problem.instance = instance;
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
    if (new Set(pairs.map(([k]) => k)).size !== pairs.length) return errorResponse(error, null, dev);
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
      return errorResponse(devError, null, true);
    } catch {
      // fall through to the plain answer
    }
  }
  return errorResponse(new HttpError(500));
}
