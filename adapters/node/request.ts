// The Node adapter's lazy request: what the core reads from an IncomingMessage,
// built only when read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../src/core/errors.ts';
import { invalidJson, type RequestLike } from '../../src/core/request.ts';
import { readBody } from '../../src/http/body.ts';
import { TOKEN } from '../../src/http/headers.ts';
import { discardBody } from '../shared/unread-body.ts';

const NO_BODY = new Set(['GET', 'HEAD']);
// Names asked for and found valid: an absent header a route asks for on every request (Range,
// If-Modified-Since) costs a set lookup, not a regex test. Cleared when full.
const VALID_NAMES = new Set<string>();

/** Spaces and tabs around a value go, as the Headers class drops them. */
function trimOws(v: string): string {
  const first = v.charCodeAt(0);
  const last = v.charCodeAt(v.length - 1);
  return first === 32 || first === 9 || last === 32 || last === 9 ? v.replace(/^[ \t]+|[ \t]+$/g, '') : v;
}

/**
 * A Request-shaped view of an IncomingMessage. Nothing is built until read:
 * the URL string, the Headers object, the body stream and the abort signal.
 * `url` is `scheme://host + target`: the listener has already refused a Host
 * that could move where the path starts.
 */
export class NodeRequest implements RequestLike {
  #url: string | undefined;
  #headers: Headers | undefined;
  #body: ReadableStream<Uint8Array> | null | undefined;
  #abort: AbortController | undefined;
  /** The client sent `Expect: 100-continue` and has not been told to send its body yet. */
  #waiting: boolean;

  constructor(
    readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
    /** The Host header, already checked (undefined for HTTP/1.0 without one). */
    private readonly host: string | undefined,
    /** From node's 'checkContinue': `100 Continue` goes out only when the app reads the body. */
    waiting = false,
  ) {
    this.#waiting = waiting;
  }

  /** Tell a client that waits for `100 Continue` to send its body: the app is reading it. */
  #continue(): void {
    if (!this.#waiting) return;
    this.#waiting = false;
    if (!this.outgoing.headersSent) this.outgoing.writeContinue();
  }

  get method(): string {
    return this.incoming.method ?? 'GET';
  }

  get url(): string {
    if (this.#url !== undefined) return this.#url;
    const target = this.incoming.url ?? '/';
    if (target.charCodeAt(0) !== 0x2f) return (this.#url = absoluteTarget(target)); // checked by the listener
    const proto = (this.incoming.socket as { encrypted?: boolean }).encrypted ? 'https://' : 'http://';
    return (this.#url = proto + (this.host ?? 'localhost') + target);
  }

  get headers(): Headers {
    if (this.#headers) return this.#headers;
    const raw = this.incoming.rawHeaders;
    const h = new Headers();
    for (let i = 0; i < raw.length; i += 2) {
      try {
        h.append(raw[i], raw[i + 1]);
      } catch {
        // node:http already rejects invalid header bytes; skip anything Headers still refuses
      }
    }
    return (this.#headers = h);
  }

  /**
   * One header as `headers.get(name)` gives it (repeats joined with ", "), read from node's raw
   * header list: a route that reads a header or two never builds the whole Headers object.
   */
  header(name: string): string | null {
    if (this.#headers) return this.#headers.get(name);
    const raw = this.incoming.rawHeaders;
    const want = name.toLowerCase();
    let out: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i];
      if (key.length === want.length && key.toLowerCase() === want) {
        const value = trimOws(raw[i + 1]);
        // Node's Headers (undici) joins repeated Cookie lines with "; ", every other name with ", ".
        out = out === null ? value : `${out}${want === 'cookie' ? '; ' : ', '}${value}`;
      }
    }
    // A name Headers would refuse throws as headers.get() does (a found name was valid on the wire).
    if (out === null && !VALID_NAMES.has(name)) {
      if (!TOKEN.test(name)) throw new TypeError(`Invalid header name: ${JSON.stringify(name)}`);
      if (VALID_NAMES.size >= 256) VALID_NAMES.clear();
      VALID_NAMES.add(name);
    }
    return out;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body !== undefined) return this.#body;
    return (this.#body = NO_BODY.has(this.method) ? null : bodyStream(this.incoming, this.#waiting ? () => this.#continue() : undefined));
  }

  /**
   * Before an error answered while the body was still unread: read and drop the rest, as every
   * adapter does (adapters/shared/unread-body.ts says why, and within what). Undefined when
   * nothing is left to drop: the body was read or is being read, or the client still waits for
   * `100 Continue` and will not send it. Past a bound, the connection closes after the answer.
   */
  drop(): Promise<void> | undefined {
    // null: read by the native readers (or a method without a body); a locked stream is being read.
    if (this.#waiting || this.incoming.complete || this.#body === null || this.#body?.locked || NO_BODY.has(this.method)) return undefined;
    return discardBody(this.body!, firstHeader(this.incoming, 'content-length') ?? null).then((whole) => {
      // Not all of it came: node would read the rest to keep the connection; close it instead.
      if (!whole) this.outgoing.shouldKeepAlive = false;
    });
  }

  get signal(): AbortSignal {
    if (this.#abort) return this.#abort.signal;
    const controller = (this.#abort = new AbortController());
    if (this.outgoing.writableFinished) return controller.signal;
    this.outgoing.once('close', () => {
      if (!this.outgoing.writableFinished) controller.abort(new Error('The client went away'));
    });
    return controller.signal;
  }

  /**
   * The whole body, as Request's readers give it, from 'data' events with no web stream in
   * between. The core calls these only for a declared Content-Length within its body limit (node's
   * parser holds the body to it); any other body it reads from `body`, counting.
   */
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#read(asArrayBuffer);
  }
  text(): Promise<string> {
    return this.#read(asText);
  }
  /** Parsed in the same step as the read: one promise, not two. Invalid JSON rejects with the core's 400. */
  json(): Promise<unknown> {
    return this.#read(asJson);
  }

  #read<T>(as: (all: Buffer) => T): Promise<T> {
    this.#continue();
    if (this.#body !== undefined || NO_BODY.has(this.method)) {
      return readBody(this.body, null, Number.POSITIVE_INFINITY).then((b) => as(Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
    }
    this.#body = null; // consumed: a later .body read sees no stream
    return readIncoming(this.incoming, as);
  }

  toRequest(): Request {
    const body = this.body;
    return new Request(this.url, {
      method: this.method,
      headers: this.headers,
      body,
      signal: this.signal,
      ...(body ? { duplex: 'half' } : {}),
    } as RequestInit);
  }
}

/** The binding's `header`: a NodeRequest's own lookup from node's raw list; any other request's `Headers`. */
export function nodeHeader(request: RequestLike, name: string): string | null {
  return request instanceof NodeRequest ? request.header(name) : request.headers.get(name);
}

/**
 * The first value of a header in node's raw list, as `incoming.headers[name]` gives it for the
 * names node keeps once (host, content-length): reading `incoming.headers` would build node's whole
 * header object, which a route that never looks at its headers does not need. `name` is lower case.
 */
export function firstHeader(incoming: IncomingMessage, name: string): string | undefined {
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i];
    if (key.length === name.length && (key === name || key.toLowerCase() === name)) return raw[i + 1];
  }
  return undefined;
}

/**
 * The authority of an absolute-form target (`http://host/path`), or null when
 * the target is neither that nor origin-form (`*`, authority-form, garbage).
 */
export function targetAuthority(target: string): string | null {
  const m = /^https?:\/\/([^/?#]*)/i.exec(target);
  return m === null ? null : m[1];
}

/** An absolute-form target as a URL string, with `/` when it has no path. */
function absoluteTarget(target: string): string {
  const start = target.indexOf('//') + 2;
  const end = target.slice(start).search(/[/?#]/);
  if (end === -1) return `${target}/`;
  return target[start + end] === '/' ? target : `${target.slice(0, start + end)}/${target.slice(start + end)}`;
}

// A copy: a small Buffer may share node's pool with other data.
const asArrayBuffer = (all: Buffer): ArrayBuffer => all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
// Buffer's UTF-8 decoding replaces bad bytes with U+FFFD as TextDecoder does; TextDecoder also drops a BOM.
const asText = (all: Buffer): string => {
  const text = all.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
};
const asJson = (all: Buffer): unknown => {
  try {
    return JSON.parse(asText(all));
  } catch {
    throw invalidJson();
  }
};

/** The whole body from 'data' events: the core calls it only for a declared length within its limit. */
function readIncoming<T>(incoming: IncomingMessage, as: (all: Buffer) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      chunks.push(chunk);
    };
    // on, not once: the message is dropped after this request, and a settled promise ignores
    // a second call, so the once() wrappers would be allocations for nothing.
    incoming.on('data', onData);
    incoming.on('end', () => {
      try {
        resolve(as(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
      } catch (error) {
        reject(error); // `as` refused the body (invalid JSON)
      }
    });
    // A connection lost mid-body is the client's doing: a 400, not an error to log.
    incoming.on('error', () => reject(endedEarly()));
    incoming.on('close', () => {
      if (!incoming.complete) reject(endedEarly());
    });
  });
}

function endedEarly(): HttpError {
  return new HttpError(400, 'The request body ended early');
}

/**
 * The request body as a ReadableStream that pauses the socket when nobody reads. With `reading`,
 * the stream pulls only when read (no high-water mark), and calls it first: the client is told to
 * send its body only then.
 */
function bodyStream(incoming: IncomingMessage, reading?: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        });
        incoming.once('end', () => {
          try {
            controller.close();
          } catch {
            // already cancelled
          }
        });
        incoming.once('error', () => {
          try {
            controller.error(endedEarly());
          } catch {
            // already cancelled
          }
        });
        incoming.pause();
      },
      pull() {
        reading?.();
        incoming.resume();
      },
      cancel() {
        // Stop keeping the data: let the socket drain into nothing until the response closes it.
        incoming.removeAllListeners('data');
        incoming.resume();
      },
    },
    { highWaterMark: reading === undefined ? 65536 : 0, size: (chunk) => chunk.byteLength },
  );
}
