/**
 * rove/request-id: every response gets an `X-Request-Id`. A well-formed id
 * the client (or a proxy) sent is echoed; anything else is replaced by a new
 * UUID. Handlers read it as `c.get('requestId')`.
 */
import type { Handler } from '../../core/compose.ts';
import type { Context } from '../../core/context.ts';
import { named } from '../../core/named.ts';
import { TOKEN } from '../../http/headers.ts';

export interface RequestIdOptions {
  /** Header read and written. Default `X-Request-Id`. */
  header?: string;
  /** Longest incoming id echoed. Default 128. */
  maxLength?: number;
  /** Make a new id, from the request if you like (a trace id a platform set). Default `crypto.randomUUID()`. */
  generate?: (c: Context<any, any>) => string;
  /** Echo a well-formed incoming id. Default true; false to always make a new one. */
  trustIncoming?: boolean;
}

// Letters, digits and a few separators: nothing that could split a log line or a header.
const WELL_FORMED = /^[A-Za-z0-9._:+=/@-]+$/;

/**
 * Set `c.get('requestId')` and the `X-Request-Id` response header.
 *
 * @example
 * import { requestId } from 'rove/request-id';
 * app.use(requestId());
 * app.get('/', (c) => c.text(c.get('requestId')));
 */
export function requestId(options: RequestIdOptions = {}): Handler {
  const header = (options.header ?? 'X-Request-Id').toLowerCase();
  // Refused now, not as a 500 on every request.
  if (!TOKEN.test(header)) throw new TypeError(`requestId(): header must be a header name, not ${JSON.stringify(options.header)}`);
  const max = options.maxLength ?? 128;
  if (!(Number.isInteger(max) && max > 0)) throw new RangeError('requestId(): maxLength must be a positive whole number');
  const generate = options.generate ?? (() => crypto.randomUUID());
  if (typeof generate !== 'function') throw new TypeError('requestId(): generate must be a function');
  const trust = options.trustIncoming !== false;
  const layer: Handler = (c, next) => {
    // c.req.header, not c.req.raw: no Request is built for it (and none can be for TRACE).
    const incoming = trust ? c.req.header(header) : undefined;
    const id = incoming !== undefined && incoming.length <= max && WELL_FORMED.test(incoming) ? incoming : generate(c);
    (c.set as (k: string, v: string) => void)('requestId', id);
    c.header(header, id);
    return next();
  };
  return named('requestId', layer);
}
