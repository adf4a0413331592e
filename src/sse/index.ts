/**
 * rove/sse: Server-Sent Events. `sse(c, run)` answers with a `text/event-stream`
 * and calls `run` with a stream to send events on; the response ends when `run`
 * returns. A client that goes away aborts `stream.signal` and turns further sends
 * into no-ops, so nothing keeps producing for nobody.
 */
import type { Context } from '../core/context.ts';
import { comment, formatEvent, type SSEMessage } from './frame.ts';

export { comment, formatEvent, type SSEMessage } from './frame.ts';

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
  /** Characters (about bytes) held for a slow client before `send` waits (default 65 536). */
  highWaterMark?: number;
}

const encoder = new TextEncoder();
const KEEP_ALIVE = ': keep-alive\n\n';
const RESOLVED = Promise.resolve();
// Keep-alive intervals a client may take nothing while events wait (with the default, a minute).
const STALLED_TICKS = 4;

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
  const highWaterMark = options.highWaterMark ?? 65_536;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // Closed or cancelled: nothing more goes out.
  let ended = false;
  // The reader waits for data: the next text goes out at once.
  let wanted = false;
  // Text sent while the reader was busy writing: it goes out, as one chunk, with the next read.
  // Events a slow client has not taken yet are batched instead of queued one chunk each.
  let pending = '';
  let sentSinceTick = false;
  // Keep-alive ticks with events waiting and no read at all: a reader that never comes back.
  let stalled = 0;
  // Senders waiting for the reader; more than one when the app sends from several places.
  let waiting: (() => void)[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;

  const wakeAll = () => {
    const list = waiting;
    waiting = [];
    for (const w of list) w();
  };
  const finish = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    wakeAll();
  };
  const gone = (reason: unknown) => {
    ended = true;
    pending = '';
    finish();
    abort.abort(reason);
  };
  const write = (text: string): Promise<void> => {
    if (ended || text === '') return RESOLVED;
    sentSinceTick = true;
    if (wanted) {
      wanted = false;
      controller.enqueue(encoder.encode(text));
      return RESOLVED;
    }
    pending += text;
    if (pending.length < highWaterMark) return RESOLVED;
    // Backpressure: wait for the reader (or the client to leave) before taking more.
    return new Promise<void>((resolve) => waiting.push(resolve));
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      // With a high-water mark of 0, pull() means exactly "the reader asks for data".
      pull() {
        stalled = 0;
        if (pending === '') {
          wanted = true;
          return;
        }
        const text = pending;
        pending = '';
        controller.enqueue(encoder.encode(text));
        wakeAll();
      },
      cancel(reason) {
        // The runtime cancels the body when the client disconnects: that is the signal.
        gone(reason ?? new Error('The client went away'));
      },
    },
    { highWaterMark: 0 },
  );

  const lastEventId = c.req.header('last-event-id');
  const stream: SSEStream = {
    send(message) {
      let text: string;
      try {
        text = formatEvent(message);
      } catch (error) {
        return Promise.reject(error); // a refused field rejects, rather than throwing where the call is made
      }
      return write(text);
    },
    comment: (text) => write(`${comment(text)}\n`),
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
      if (pending !== '' && ++stalled >= STALLED_TICKS) {
        // Nothing taken for that long (a peer that vanished without a reset, a body nobody reads):
        // end the stream rather than hold the producer and its events for ever.
        gone(new Error('The client read nothing for too long'));
        try {
          controller.error(new Error('SSE: the client read nothing for too long'));
        } catch {
          // already closed
        }
        return;
      }
      // Only when the line is quiet, and never onto a queue the client is not reading.
      if (!sentSinceTick && pending === '') void write(KEEP_ALIVE);
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
        if (pending !== '') controller.enqueue(encoder.encode(pending));
        pending = '';
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
