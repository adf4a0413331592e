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
