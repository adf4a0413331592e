/**
 * rove/stream: `c.stream(…)`. Loading this module puts the method on every context (as rove/views
 * puts `c.render`), so apps that never stream do not carry it.
 *
 * @example
 * import 'rove/stream';
 * app.get('/log', (c) => c.stream(async (out) => {
 *   await out.write('first line\n');
 *   await out.write('second line\n');
 * }));
 */
import { Context, internals, type StatusCode, type StreamWriter } from './context.ts';

// The Fetch spec's type for a string body, the same one `c.text` gives.
const TEXT_TYPE = 'text/plain;charset=UTF-8';
const encoder = new TextEncoder();

/**
 * A streamed response: a ReadableStream as it is, or a function that writes chunks while the
 * response is already on its way. Content type text/plain unless `c.header` or `headers` name one.
 * A client that goes away makes `writer.aborted` true, and later writes are dropped.
 * `c.stream(source)` is the same call.
 *
 * @example
 * app.get('/tail', (c) => stream(c, async (out) => { await out.write('tick\n'); }));
 */
export function stream(
  c: Context<any, any>,
  source: ReadableStream<Uint8Array> | ((writer: StreamWriter) => Promise<void> | void),
  status?: StatusCode,
  headers?: Record<string, string>,
): Response {
  const typed = internals.pendingHeaders(c)?.['content-type'] !== undefined;
  const extra = typed ? headers : { 'content-type': TEXT_TYPE, ...headers };
  if (typeof source !== 'function') return c.body(source, status, extra);
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, { highWaterMark: 1 });
  const w = writable.getWriter();
  // A client that goes away cancels the readable side, which fails the next write:
  // no listener on request.signal is needed (and Deno warns about those).
  let aborted = false;
  const writer: StreamWriter = {
    async write(chunk) {
      if (aborted) return;
      try {
        await w.ready;
        await w.write(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      } catch {
        aborted = true;
      }
    },
    get aborted() {
      return aborted;
    },
    // Read only when asked: on Node the request's signal is made on first use.
    get signal() {
      return c.req.signal;
    },
  };
  Promise.resolve()
    .then(() => source(writer))
    .then(
      () => (aborted ? undefined : w.close()),
      (err) => w.abort(err),
    )
    .catch(() => {});
  return c.body(readable, status, extra);
}

function method(this: Context<any, any>, source: Parameters<typeof stream>[1], status?: StatusCode, headers?: Record<string, string>): Response {
  return stream(this, source, status, headers);
}
if (!Object.hasOwn(Context.prototype, 'stream')) Object.defineProperty(Context.prototype, 'stream', { configurable: true, writable: true, value: method });
