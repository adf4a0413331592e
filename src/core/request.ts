import { readBody } from '../http/body.ts';
import { readForm, readFormData } from '../http/form-body.ts';
import type { ParamName, ParamValue, PathParams } from '../routing/path-params.ts';
import type { Params } from '../routing/router.ts';
import { BodyError, HttpError } from './errors.ts';

/** What the request side reads from the app (ContextConfig satisfies it). */
interface RequestScope {
  clientIp(request: RequestLike, info: unknown): string | undefined;
  protocol(request: RequestLike, info: unknown): 'http' | 'https' | undefined;
  /** The adapter's `request.headers.get(name)` that need not build the headers (ServerBinding.header). */
  header?(request: RequestLike, name: string): string | null;
}

/**
 * What the core reads from an incoming request. A real `Request` satisfies it;
 * an adapter may pass a lazier object and offer `toRequest()` to build the real
 * one only when a handler asks for `c.req.raw`. The core calls the whole-body readers
 * only for a declared Content-Length within its body limit; any other body it reads
 * from `body`, counting.
 */
export interface RequestLike {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly signal: AbortSignal;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
  /** Invalid JSON rejects with `invalidJson()` (a Request's own SyntaxError is mapped to it). */
  json(): Promise<unknown>;
  toRequest?(): Request;
}

export type { FormValue } from '../http/form-body.ts';
export { isFormType, isJsonType, mediaType } from '../http/form-body.ts';

import type { FormValue } from '../http/form-body.ts';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The request side of a context: params, query, headers and body readers that read once. */
export class RoveRequest<K extends string = string> {
  #raw: RequestLike;
  readonly #original: RequestLike;
  #ip: string | undefined | null = null;
  #query: URLSearchParams | undefined;
  #bytes: Promise<Uint8Array> | undefined;
  #text: Promise<string> | undefined;
  #json: Promise<unknown> | undefined;

  #queryString: string;
  #params: Params;
  #scope: RequestScope;
  #info: unknown;
  #limit: () => number;

  constructor(
    raw: RequestLike,
    /** The decoded path, without the query. */
    readonly path: string,
    queryString: string,
    params: Params,
    scope: RequestScope,
    info: unknown,
    limit: () => number,
  ) {
    this.#raw = raw;
    this.#original = raw;
    this.#queryString = queryString;
    this.#params = params;
    this.#scope = scope;
    this.#info = info;
    this.#limit = limit;
  }

  /**
   * The client's address: the connection's peer (on Workers, `cf-connecting-ip`),
   * or with the app's `trustProxy` option, the address its trusted proxies forwarded.
   * Undefined where the runtime does not tell (a Request built in a test).
   */
  get ip(): string | undefined {
    if (this.#ip === null) this.#ip = this.#scope.clientIp(this.#original, this.#info);
    return this.#ip;
  }

  /**
   * `'https'` or `'http'`: what a trusted proxy (the app's `trustProxy`) says the client used,
   * else the scheme of the request URL. An untrusted peer's forwarding headers are ignored.
   *
   * @example
   * if (c.req.protocol !== 'https') return c.redirect(`https://${c.req.header('host')}${c.req.path}`, 308);
   */
  get protocol(): 'http' | 'https' {
    return this.#scope.protocol(this.#original, this.#info) ?? (this.#raw.url.startsWith('https:') ? 'https' : 'http');
  }

  get method(): string {
    return this.#raw.method;
  }
  get url(): string {
    return this.#raw.url;
  }
  get headers(): Headers {
    return this.#raw.headers;
  }
  get signal(): AbortSignal {
    return this.#raw.signal;
  }
  /** The WHATWG Request. On Node it is built on first access. */
  get raw(): Request {
    const r = this.#raw;
    if (typeof r.toRequest === 'function') {
      const real = r.toRequest();
      this.#raw = real;
      return real;
    }
    return r as Request;
  }

  /**
   * A path param, typed from the route's pattern: on `/users/:id`, `param('id')` is a `string`,
   * an optional `:id?` is `string | undefined`, and a name the pattern lacks does not compile.
   * Without a name, every param.
   *
   * @example
   * app.get('/users/:id', (c) => c.text(c.req.param('id')));
   */
  param(): PathParams<K>;
  param<N extends ParamName<K>>(name: N): ParamValue<K, N>;
  param(name?: string): Params | string | undefined {
    if (name === undefined) return this.#params;
    // Own params only: `constructor` or `toString` must not answer with Object.prototype's.
    return Object.hasOwn(this.#params, name) ? this.#params[name] : undefined;
  }

  /** First value of a query parameter, or every parameter's first value (a prototype-free object: any name is an own key). */
  query(): Record<string, string>;
  query(name: string): string | undefined;
  query(name?: string): Record<string, string> | string | undefined {
    if (name !== undefined && this.#query === undefined) {
      const found = queryValue(this.#queryString, name);
      if (found !== undefined) return found ?? undefined;
    }
    const q = (this.#query ??= new URLSearchParams(this.#queryString));
    if (name !== undefined) return q.get(name) ?? undefined;
    const out: Record<string, string> = Object.create(null);
    for (const [k, v] of q) if (!Object.hasOwn(out, k)) out[k] = v;
    return out;
  }

  /** Every value of a query parameter. */
  queries(name: string): string[] {
    return (this.#query ??= new URLSearchParams(this.#queryString)).getAll(name);
  }

  header(name: string): string | undefined {
    return this.#header(name) ?? undefined;
  }

  /** One header as `headers.get` answers it, through the adapter's cheaper lookup when it has one. */
  #header(name: string): string | null {
    const scope = this.#scope;
    return scope.header === undefined ? this.#raw.headers.get(name) : scope.header(this.#raw, name);
  }

  /** The body bytes, read once up to the body limit (413 beyond it). */
  bytes(): Promise<Uint8Array> {
    return (this.#bytes ??= this.#readBytes());
  }

  #readBytes(): Promise<Uint8Array> {
    const raw = this.#raw;
    // A native text or JSON reader took the body (json() set without text() means the native one).
    if (this.#text !== undefined || this.#json !== undefined) return this.text().then((t) => encoder.encode(t));
    const limit = this.#limit();
    if (this.#native()) return raw.arrayBuffer().then((b) => new Uint8Array(b), endedEarly);
    return readBody(raw.body, this.#header('content-length'), limit);
  }

  /**
   * Whether the request's own body readers may be used: a declared length within
   * the limit is enforced by HTTP framing, and they cost less than pulling
   * a stream here (figures in docs/design-notes.md).
   */
  #native(): boolean {
    const length = this.#header('content-length');
    // Transfer-Encoding overrides Content-Length (RFC 9112 §6.1): then only counting the bytes read holds the limit.
    return length !== null && Number(length) <= this.#limit() && this.#header('transfer-encoding') === null;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.bytes();
    return b.buffer.byteLength === b.byteLength ? (b.buffer as ArrayBuffer) : (b.slice().buffer as ArrayBuffer);
  }

  text(): Promise<string> {
    if (this.#text !== undefined) return this.#text;
    // Only the native JSON reader leaves json() set and text() unset: serialise the value again.
    if (this.#json !== undefined) return (this.#text = this.#json.then((v) => JSON.stringify(v)));
    if (this.#bytes === undefined && this.#native()) {
      const raw = this.#raw;
      // An adapter's own request maps a lost connection itself: no second promise.
      return (this.#text = raw instanceof Request ? raw.text().catch(endedEarly) : raw.text());
    }
    return (this.#text = this.bytes().then((b) => decoder.decode(b)));
  }

  /**
   * The parsed JSON body; invalid JSON answers 400. As the first read of the
   * body it uses the runtime's JSON reader (cheaper than text and JSON.parse, see
   * docs/design-notes.md); text() and bytes() after it give the value serialised again.
   */
  json<T = unknown>(): Promise<T> {
    if (this.#json === undefined && this.#text === undefined && this.#bytes === undefined && this.#native()) {
      const raw = this.#raw;
      // An adapter's own request refuses invalid JSON itself: no second promise to map the error.
      this.#json = raw instanceof Request ? raw.json().catch(nativeJsonFailed) : raw.json();
    }
    return (this.#json ??= this.text().then(parseJson)) as Promise<T>;
  }

  /**
   * The body as FormData (urlencoded or multipart), parsed once; anything else answers 415.
   *
   * @example
   * const data = await c.req.formData();
   */
  formData(): Promise<FormData> {
    return readFormData(this);
  }

  /**
   * The form as an object (a prototype-free one); repeated fields become arrays.
   * Anything but a urlencoded or multipart body answers 415.
   *
   * @example
   * app.post('/notes', async (c) => c.json(await c.req.form()));
   */
  form(): Promise<Record<string, FormValue | FormValue[]>> {
    return readForm(this);
  }
}

/** The native JSON reader's failure: invalid JSON (400), or the body cut off. */
function nativeJsonFailed(error: unknown): never {
  throw error instanceof SyntaxError ? invalidJson() : endedEarly(error);
}

/**
 * A runtime's own body reader failed: the connection was lost mid-body (the only way reading a
 * body with a declared length fails), the client's doing, not an error of the app.
 */
function endedEarly(error: unknown): never {
  throw error instanceof HttpError ? error : new HttpError(400, 'The request body ended early', { cause: error });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidJson();
  }
}

/** The 400 for a JSON body that does not parse. */
export function invalidJson(): BodyError {
  return new BodyError('invalid', 400, 'Invalid JSON body');
}

/**
 * One query parameter's first value, exactly as `new URLSearchParams(qs).get(name)` gives it
 * (`null` when absent), without building one: a handler that reads one or two parameters pays
 * for neither a URLSearchParams nor its entry list. Returns `undefined` for a query string with
 * an escape (`%`, `+`, a lone surrogate), which the caller then parses whole.
 */
export function queryValue(qs: string, name: string): string | null | undefined {
  if (ESCAPE.test(qs)) return undefined;
  for (const pair of qs.split('&')) {
    const eq = pair.indexOf('=');
    // URLSearchParams skips empty pairs (`a=1&&b`).
    if (pair !== '' && (eq === -1 ? pair : pair.slice(0, eq)) === name) return eq === -1 ? '' : pair.slice(eq + 1);
  }
  return null;
}

const ESCAPE = /[%+\uD800-\uDFFF]/;
