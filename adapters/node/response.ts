// The Node adapter's light Response (as @hono/node-server keeps one): what
// c.json, c.text and the other helpers return on Node. It is `instanceof
// Response` and behaves as one, but holds only the payload, the status and a
// header record, so the adapter writes it with one writeHead + end. The real
// Response is built the first time anything beyond status/ok/headers is used.
import type { ServerResponse } from 'node:http';
import { type HeaderRecord, toHeadersInit } from '../../src/core/response.ts';
import { isSendable, TOKEN } from '../../src/http/headers.ts';
import { BUILT } from '../shared/checked-response.ts';

export type { HeaderRecord } from '../../src/core/response.ts';

type Payload = string | Uint8Array | null;

const TEXT_DEFAULT = 'text/plain;charset=UTF-8';
const FETCH_REFUSES = /[\0\r\n]/;
// Bytes `Headers` accepts but node:http's writeHead refuses (ERR_INVALID_CHAR).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const NODE_REFUSES = /[\x00-\x08\x0a-\x1f\x7f]/;
// The whitespace Headers trims from both ends of a value.
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
// Names and values already checked: the same few (content types, cookie names) come back on
// every request, and a set lookup costs a fraction of a regex test. Cleared when full.
const GOOD_NAMES = new Set<string>();
const GOOD_VALUES = new Set<string>();
const MAX_REMEMBERED = 512;

/**
 * A Response whose parts stay plain until used. Build it with `respond()`.
 * Validation happens here, as `new Response` does it (status 200–599, header
 * names and values), plus what node:http would refuse to write: a CR/LF taken
 * from the query throws in the handler (and becomes a 500 through onError),
 * never later in `writeHead`.
 */
export class NodeResponse {
  /** Own data property: shadows Response.prototype.status without a brand check. */
  readonly status: number;
  #payload: Payload;
  #record: HeaderRecord;
  #headers: Headers | undefined;
  #real: Response | undefined;
  #streamTaken = false;

  constructor(payload: Payload, status: number, record: HeaderRecord, checked = false) {
    if (!(status >= 200 && status <= 599 && Number.isInteger(status))) status = checkStatus(status);
    if (payload !== null && (status === 204 || status === 205 || status === 304)) {
      throw new TypeError(`Response constructor: Invalid response status code ${status}`);
    }
    if (!checked) checkRecord(record);
    // As `new Response(string)` does.
    if (typeof payload === 'string' && record['content-type'] === undefined) record['content-type'] = TEXT_DEFAULT;
    this.status = status;
    this.#payload = payload;
    this.#record = record;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** A live `Headers`: changes made to it are what the adapter writes. */
  get headers(): Headers {
    if (this.#real !== undefined) return this.#real.headers;
    return (this.#headers ??= new Headers(toHeadersInit(this.#record)));
  }

  /** The real Response, built once; from then on it answers everything. */
  toResponse(): Response {
    return (this.#real ??= new Response(this.#payload as BodyInit | null, {
      status: this.status,
      headers: this.#headers ?? toHeadersInit(this.#record),
    }));
  }

  /**
   * Write this response with one writeHead + end, unless its body was taken as
   * a stream or consumed: then answer false and let the caller write `toResponse()`.
   */
  writeTo(res: ServerResponse): boolean {
    const real = this.#real;
    let headers: HeaderRecord;
    if (real === undefined) headers = this.#headers === undefined ? this.#record : headerObject(this.#headers);
    else if (this.#streamTaken || real.bodyUsed) return false;
    else headers = headerObject(real.headers);
    const payload = this.#payload;
    if (payload === null) {
      if (this.status !== 204 && this.status !== 304) headers['content-length'] = '0';
      res.writeHead(this.status, headers);
      res.end();
      return true;
    }
    // On HEAD, node:http sends these headers (the GET's Content-Length) and drops the payload itself.
    headers['content-length'] = String(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength);
    res.writeHead(this.status, headers);
    res.end(payload);
    return true;
  }

  /** False once anything may have changed the headers since they were built (checkUnlessBuilt). */
  get [BUILT](): boolean {
    return this.#headers === undefined && this.#real === undefined;
  }

  /** The body stream; once taken, the writer sends this stream rather than the payload. */
  get body(): ReadableStream<Uint8Array> | null {
    this.#streamTaken = true;
    return this.toResponse().body;
  }
}

// Every other Response member works on the real Response, built on first use.
for (const key of Object.getOwnPropertyNames(Response.prototype)) {
  if (Object.hasOwn(NodeResponse.prototype, key) || key === 'status') continue;
  const desc = Object.getOwnPropertyDescriptor(Response.prototype, key)!;
  if (desc.get) {
    const get = function (this: NodeResponse) {
      return (this.toResponse() as any)[key];
    };
    Object.defineProperty(NodeResponse.prototype, key, { get, configurable: true });
  } else if (typeof desc.value === 'function') {
    Object.defineProperty(NodeResponse.prototype, key, {
      value: function (this: NodeResponse, ...args: unknown[]) {
        return (this.toResponse() as any)[key](...args);
      },
      writable: true,
      configurable: true,
    });
  }
}
Object.defineProperty(NodeResponse.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: NodeResponse) {
    return `Response (Node light) { status: ${this.status} }`;
  },
});
Object.setPrototypeOf(NodeResponse.prototype, Response.prototype);

/**
 * The `respond` binding of the Node adapter: what context helpers return.
 *
 * @example
 * const res = respond('{"ok":true}', 200, { 'content-type': 'application/json' });
 * res instanceof Response; // true
 * await res.clone().json(); // { ok: true }
 */
export function respond(body: Payload, status: number, headers: HeaderRecord): Response {
  return new NodeResponse(body, status, headers) as unknown as Response;
}

/**
 * The Node binding's `respond`: a light response from a header record the context has already put
 * through `checkHeader` (every name a token, no control character in a value: what the check
 * here enforces), so the names and values are not checked twice per response.
 */
export function respondLight(body: Payload, status: number, headers: HeaderRecord): Response {
  return new NodeResponse(body, status, headers, true) as unknown as Response;
}

/** Refuses what `new Response` would, and what node:http could not write; normalises the rest. */
function checkRecord(record: HeaderRecord): void {
  for (const name in record) {
    if (!GOOD_NAMES.has(name)) learnName(name);
    const value = record[name];
    if (typeof value === 'string') {
      if (!GOOD_VALUES.has(value)) record[name] = learnValue(value);
    } else {
      for (let i = 0; i < value.length; i++) if (!GOOD_VALUES.has(value[i])) value[i] = learnValue(value[i]);
    }
  }
}

function learnName(name: string): void {
  if (!TOKEN.test(name)) throw new TypeError(`Headers.append: "${name}" is an invalid header name.`);
  if (GOOD_NAMES.size >= MAX_REMEMBERED) GOOD_NAMES.clear();
  GOOD_NAMES.add(name);
}

/** The value to keep: as is when node:http writes it as is (remembered), else normalised or refused. */
function learnValue(value: string): string {
  if (!isSendable(value)) return checkValue(value);
  if (value.length > 256) return value; // not worth keeping
  if (GOOD_VALUES.size >= MAX_REMEMBERED) GOOD_VALUES.clear();
  GOOD_VALUES.add(value);
  return value;
}

/** As the WebIDL conversion `new Response` applies, then its range check. */
function checkStatus(status: unknown): number {
  let n = Math.trunc(Number(status));
  if (!Number.isFinite(n)) n = 0;
  n = ((n % 65536) + 65536) % 65536;
  if (n < 200 || n > 599) throw new RangeError('init["status"] must be in the range of 200 to 599, inclusive.');
  return n;
}

/** A value with a byte outside what node:http writes as is: normalise it as `Headers` does, or refuse it. */
function checkValue(value: string): string {
  const trimmed = value.replace(EDGE_WHITESPACE, '');
  for (let i = 0; i < trimmed.length; i++) {
    if (trimmed.charCodeAt(i) > 0xff) {
      throw new TypeError(
        `Cannot convert argument to a ByteString because the character at index ${i} has a value of ${trimmed.charCodeAt(i)} which is greater than 255.`,
      );
    }
  }
  if (FETCH_REFUSES.test(trimmed)) throw new TypeError(`Headers.append: "${trimmed}" is an invalid header value.`);
  if (NODE_REFUSES.test(trimmed)) throw new TypeError(`Invalid character in a header value: node:http cannot send it`);
  return trimmed;
}

/** Headers as node:http's writeHead takes them, Set-Cookie values kept apart. */
export function headerObject(headers: Headers): HeaderRecord {
  const out: HeaderRecord = {};
  headers.forEach((value, key) => {
    if (key !== 'set-cookie') out[key] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}
