// The body behind `c.stream(writer => …)`: a stream the handler writes while the response is
// already on its way, with backpressure and a flag for a client that went away.

/** What `c.stream(fn)` hands `fn`. */
export interface StreamWriter {
  /** Resolves once the chunk is handed on; waits while the client is slow (backpressure). */
  write(chunk: string | Uint8Array): Promise<void>;
  /** True once the client went away; writes after that are dropped. */
  readonly aborted: boolean;
  readonly signal: AbortSignal;
}

const encoder = new TextEncoder();

/**
 * A readable stream fed by `source`, which runs at once. A failure in `source` aborts the stream
 * (the connection is cut: the status is already sent). `signal` is read only when asked: on Node
 * the request's signal is made on first use.
 *
 * @example
 * const body = writerStream(async (out) => { await out.write('tick\n'); }, () => c.req.signal);
 */
export function writerStream(source: (writer: StreamWriter) => Promise<void> | void, signal: () => AbortSignal): ReadableStream<Uint8Array> {
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
    get signal() {
      return signal();
    },
  };
  Promise.resolve()
    .then(() => source(writer))
    .then(
      () => (aborted ? undefined : w.close()),
      (err) => w.abort(err),
    )
    .catch(() => {});
  return readable;
}
