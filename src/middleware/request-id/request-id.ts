/**
 * rove/request-id: every response gets an `X-Request-Id`. A well-formed id
 * the client (or a proxy) sent is echoed; anything else is replaced by a new
 * UUID. Handlers read it as `c.get('requestId')`.
 */
import type { Handler } from '../../compose.ts';

export interface RequestIdOptions {
  /** Header read and written. Default `X-Request-Id`. */
  header?: string;
  /** Longest incoming id echoed. Default 128. */
  maxLength?: number;
  /** Make a new id. Default `crypto.randomUUID()`. */
  generate?: () => string;
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
  const max = options.maxLength ?? 128;
  const generate = options.generate ?? (() => crypto.randomUUID());
  const trust = options.trustIncoming !== false;
  return (c, next) => {
    const incoming = trust ? c.req.raw.headers.get(header) : null;
    const id = incoming !== null && incoming.length <= max && WELL_FORMED.test(incoming) ? incoming : generate();
    (c.set as (k: string, v: string) => void)('requestId', id);
    c.header(header, id);
    return next();
  };
}
