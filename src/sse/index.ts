/**
 * rove/sse: Server-Sent Events. `sse(c, run)` answers with a `text/event-stream`
 * and calls `run` with a stream to send events on; the response ends when `run`
 * returns. A client that goes away aborts `stream.signal` and turns further sends
 * into no-ops, so nothing keeps producing for nobody.
 */
import type { Context } from '../context.ts';
import { comment, formatEvent, type SSEMessage } from './frame.ts';

export { comment, formatEvent, type SSEMessage } from './frame.ts';

declare module '../event-map.ts' {
  interface EventMap {
    /** An SSE callback threw or rejected; the stream was ended. */
    'sse:error': { path: string; error: unknown };
  }
}

/** What an SSE callback writes to. */
export interface SSEStream {
  /**
   * Send one event. Resolves once it is queued; waits while the client reads slowly
   * (backpressure), so a fast producer cannot fill memory. After a disconnect it resolves at once and sends nothing.
   * Throws a TypeError for an `event` or `id` holding CR or LF.
   */
  send(message: SSEMessage): Promise<void>;
  /** Send a comment line (clients ignore it): a heartbeat of your own, or a note for curl users. */
  comment(text: string): Promise<void>;
  /** The `Last-Event-ID` the client sent when it reconnected, or undefined. */
  readonly lastEventId: string | undefined;
  /** Aborted when the client disconnects (or the response is cancelled). Pass it on to fetch, timers, subscriptions. */
  readonly signal: AbortSignal;
  /** True once the client went away. */
  readonly aborted: boolean;
  /** Resolves after `ms`, or as soon as the client goes away: `while (!stream.aborted) { …; await stream.sleep(1000) }`. */
  sleep(ms: number): Promise<void>;
}

export interface SSEOptions {
  /** Send a comment this often while nothing else is sent, so proxies keep the connection open (ms; default 15 000; 0: never). */
  keepAliveMs?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Bytes queued for a slow client before `send` waits (default 64 KiB). */
  highWaterMark?: number;
}

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/**
 * Answer with Server-Sent Events. Headers: `text/event-stream`, `Cache-Control: no-cache`
 * and `X-Accel-Buffering: no` (nginx would otherwise hold the events back).
 *
 * @example
 * import { sse } from 'rove/sse';
 * app.get('/clock', (c) =>
 *   sse(c, async (stream) => {
 *     let id = Number(stream.lastEventId ?? 0);
 *     while (!stream.aborted) {
 *       await stream.send({ event: 'tick', id: ++id, data: { now: Date.now() } });
 *       await stream.sleep(1000);
 *     }
 *   }),
 * );
 */
export function sse(c: Context<any, any>, run: (stream: SSEStream) => Promise<void> | void, options: SSEOptions = {}): Response {
  const abort = new AbortController();
  const signal = abort.signal;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let sentSinceTick = false;
  // Senders waiting for the reader to pull; more than one when the app sends from several places.
  let waiting: (() => void)[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;

  const finish = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    wakeAll();
  };
  const wakeAll = () => {
    const list = waiting;
    waiting = [];
    for (const w of list) w();
  };
  const enqueue = async (bytes: Uint8Array): Promise<void> => {
    if (ended || bytes.byteLength === 0) return;
    sentSinceTick = true;
    controller.enqueue(bytes);
    // Backpressure: wait for the reader to pull (or the client to leave) before queuing more.
    while (!ended && (controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => waiting.push(resolve));
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        wakeAll();
      },
      cancel(reason) {
        // The runtime cancels the body when the client disconnects: that is the signal.
        ended = true;
        finish();
        abort.abort(reason ?? new Error('The client went away'));
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: options.highWaterMark ?? 65_536 }),
  );

  const lastEventId = c.req.header('last-event-id');
  const stream: SSEStream = {
    // async: a refused field rejects the promise rather than throwing where the call is made.
    send: async (message) => enqueue(encoder.encode(formatEvent(message))),
    comment: async (text) => enqueue(encoder.encode(`${comment(text)}\n`)),
    lastEventId,
    signal,
    get aborted() {
      return signal.aborted;
    },
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const done = () => {
          clearTimeout(t);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const t = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
      }),
  };

  const every = options.keepAliveMs ?? 15_000;
  if (every > 0) {
    timer = setInterval(() => {
      // Only when the line is quiet, and never past a full queue.
      if (!sentSinceTick && !ended && (controller.desiredSize ?? 0) > 0) controller.enqueue(KEEP_ALIVE);
      sentSinceTick = false;
    }, every);
  }

  Promise.resolve()
    .then(() => run(stream))
    .catch((error) => {
      if (!signal.aborted) c.emit('sse:error', () => ({ path: c.path, error }));
    })
    .finally(() => {
      finish();
      if (ended) return;
      ended = true;
      try {
        controller.close();
      } catch {
        // already cancelled
      }
    });

  return c.body(body, 200, {
    ...options.headers,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
}
