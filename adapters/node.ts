import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../src/app.ts';
import type { ExecutionContext } from '../src/context.ts';
import type { RequestLike } from '../src/request.ts';
import { readBody, tooLarge } from '../src/body.ts';
import { HttpError } from '../src/errors.ts';
import { watchProcessErrors } from './global-errors.ts';
import { backgroundContext, listenMessage, listenUrl, type ServeOptions, type ServeHandle } from './serve-options.ts';
import { nodeWorkers } from './workers/node.ts';

const NO_BODY = new Set(['GET', 'HEAD']);

/**
 * A Request-shaped view of an IncomingMessage. Nothing is built until read:
 * the URL string, the Headers object, the body stream and the abort signal.
 */
class NodeRequest implements RequestLike {
  #url: string | undefined;
  #headers: Headers | undefined;
  #body: ReadableStream<Uint8Array> | null | undefined;
  #abort: AbortController | undefined;

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
  ) {}

  get method(): string {
    return this.incoming.method ?? 'GET';
  }

  /** The client's address, read only by request events. */
  get remoteAddress(): string | undefined {
    return this.incoming.socket?.remoteAddress;
  }

  get url(): string {
    return (this.#url ??= fullUrl(this.incoming));
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

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body !== undefined) return this.#body;
    return (this.#body = NO_BODY.has(this.method) ? null : bodyStream(this.incoming));
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

  /** The whole body from 'data' events, counted against the limit; no web stream in between. */
  readBytes(limit: number): Promise<Uint8Array> {
    if (this.#body !== undefined || NO_BODY.has(this.method)) return readBody(this.body, null, limit);
    this.#body = null; // consumed: a later .body read sees no stream
    return readIncoming(this.incoming, limit);
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

function readIncoming(incoming: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    incoming.resume(); // drain into nothing; the 413 closes the connection
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        incoming.off('data', onData);
        incoming.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    incoming.on('data', onData);
    incoming.once('end', () => {
      const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      resolve(new Uint8Array(all.buffer, all.byteOffset, all.byteLength));
    });
    incoming.once('error', reject);
    incoming.once('close', () => {
      if (!incoming.complete) reject(new HttpError(400, 'The request body ended early'));
    });
  });
}

function fullUrl(incoming: IncomingMessage): string {
  const target = incoming.url ?? '/';
  if (target.startsWith('/')) {
    const host = incoming.headers.host;
    // A Host with path or userinfo characters must not shift where the path starts.
    const safe = host && !/[/?#@\s\\]/.test(host) ? host : 'localhost';
    const proto = (incoming.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    return `${proto}://${safe}${target}`;
  }
  if (/^https?:\/\/[^/?#]+/i.test(target)) return target.includes('/', target.indexOf('//') + 2) ? target : target + '/';
  return 'http://localhost/'; // "*" (OPTIONS *) or anything else that is not a path
}

/** The request body as a ReadableStream that pauses the socket when nobody reads. */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
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
        incoming.once('error', (err) => {
          try {
            controller.error(err);
          } catch {
            // already cancelled
          }
        });
        incoming.pause();
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        // Stop keeping the data: let the socket drain into nothing until the response closes it.
        incoming.removeAllListeners('data');
        incoming.resume();
      },
    },
    { highWaterMark: 65536, size: (chunk) => chunk.byteLength },
  );
}

function headerObject(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  headers.forEach((value, key) => {
    if (key !== 'set-cookie') out[key] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

async function pipeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  let closed = false;
  const onClose = () => {
    closed = true;
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || closed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.once('drain', go);
          res.once('close', go);
        });
      }
    }
    if (!closed) res.end();
  } catch {
    // The stream failed mid-response: the status is already sent, so cut the connection.
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

function write(result: Response, res: ServerResponse): void | Promise<void> {
  res.writeHead(result.status, headerObject(result.headers));
  if (result.body === null) {
    res.end();
    return;
  }
  return pipeBody(result.body, res);
}

function fail(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  void error;
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('Internal Server Error');
}

/** The node:http request listener for an app, for use with your own server. */
export function toNodeListener(app: App<any>, env: unknown = process.env, pending = new Set<Promise<unknown>>()) {
  const ctx = backgroundContext(pending);
  app.settings.workers?.start(nodeWorkers);
  app.bind({ runtime: 'node', address: (request) => (request as NodeRequest).remoteAddress });
  return (incoming: IncomingMessage, res: ServerResponse): void => {
    let out: Response | Promise<Response>;
    try {
      out = app.handle(new NodeRequest(incoming, res), env, ctx);
    } catch (error) {
      fail(res, error);
      return;
    }
    if (out instanceof Promise) {
      out.then((r) => write(r, res)).catch((error) => fail(res, error));
      return;
    }
    try {
      const w = write(out, res);
      if (w) w.catch((error) => fail(res, error));
    } catch (error) {
      fail(res, error);
    }
  };
}

/** Serve an app on node:http. Stops on `signal`, `close()`, SIGINT or SIGTERM, letting in-flight requests finish. */
export function serve(app: App<any>, options: ServeOptions = {}): ServeHandle & { server: Server } {
  const pending = new Set<Promise<unknown>>();
  const server = createServer(toNodeListener(app, options.env ?? process.env, pending));
  const grace = options.shutdownTimeoutMs ?? 10_000;
  let resolveFinished!: () => void;
  const finished = new Promise<void>((r) => (resolveFinished = r));
  let closing: Promise<void> | undefined;

  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve) => {
      // Listeners' async work joins `pending`, which shutdown waits for.
      app.events.emit('server:shutdown', { runtime: 'node' }, backgroundContext(pending));
      const timer = setTimeout(() => server.closeAllConnections(), grace);
      timer.unref();
      // Keep-alive sockets become idle as their last response ends: close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.close(() => {
        clearTimeout(timer);
        clearInterval(sweep);
        Promise.allSettled([...pending]).then(() => resolve());
      });
      server.closeIdleConnections();
    }).then(() => app.shutdown()).then(() => {
      unwatch();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolveFinished();
    }));

  const onSignal = () => {
    close().then(() => process.exit(0));
  };
  if (options.handleSignals !== false) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  const unwatch = watchProcessErrors(app, 'node', process);

  const handle = { server, port: 0, hostname: options.hostname ?? '0.0.0.0', close, finished };
  server.listen(options.port ?? 8000, handle.hostname, () => {
    handle.port = (server.address() as AddressInfo).port;
    (options.onListen ?? listenMessage)({ port: handle.port, hostname: handle.hostname });
    app.events.emit('server:listening', { runtime: 'node', hostname: handle.hostname, port: handle.port, url: listenUrl(handle.hostname, handle.port) });
  });
  return handle;
}
