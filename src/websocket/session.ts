// One open WebSocket, the same on every runtime: size limit, idle timeout,
// backpressure, close codes, the app's handlers and the bus events. The adapter
// only moves frames (see protocol.ts).
import type { Context } from '../core/context.ts';
import type { RawSocket, SocketEvents } from './protocol.ts';

/** The socket as handlers see it. */
export interface WSContext {
  /**
   * Send a text (string) or binary message. Resolves at once while little is queued; once more than
   * the high-water mark waits to be written (a slow client), it resolves when the queue drains. Await it
   * in loops that send a lot. Sends on a closing or closed socket are dropped.
   */
  send(data: string | ArrayBuffer | ArrayBufferView): Promise<void>;
  /** Close with a code (default 1000; 1000 or 3000–4999 for apps) and a reason of at most 123 bytes. */
  close(code?: number, reason?: string): void;
  /** 1 open, 2 closing, 3 closed (the WebSocket constants). */
  readonly readyState: 1 | 2 | 3;
  /** The subprotocol agreed in the handshake, or ''. */
  readonly protocol: string;
  /** Bytes queued and not yet written (0 where the runtime does not say: Workers). */
  readonly bufferedAmount: number;
}

export interface CloseInfo {
  /** 1005 when the peer sent no code, 1006 when the connection dropped without a close frame. */
  code: number;
  reason: string;
}

/** What a route's factory returns: the handlers of one connection. Every one is optional. */
export interface WSEvents {
  onOpen?(ws: WSContext): void | Promise<void>;
  /** Text arrives as a string, binary as a Uint8Array. */
  onMessage?(data: string | Uint8Array, ws: WSContext): void | Promise<void>;
  onClose?(info: CloseInfo, ws: WSContext): void | Promise<void>;
  /** A handler threw or rejected, or the runtime reported a socket error. */
  onError?(error: unknown, ws: WSContext): void | Promise<void>;
}

export interface SessionLimits {
  maxMessageSize: number;
  idleTimeoutMs: number;
  highWaterMark: number;
  maxBufferedAmount: number;
}

const encoder = new TextEncoder();
const RESOLVED = Promise.resolve();
// After the server starts a close, a peer that never answers is dropped this much later.
const CLOSE_GRACE_MS = 5_000;
// How often a waiting send looks at the queue again: often where the runtime has no drain event,
// rarely where it has one (then the poll only covers a drain the runtime does not report).
const DRAIN_POLL_MS = 10;
const DRAIN_FALLBACK_MS = 100;
// The most a frame adds to its payload in a runtime's send queue (RFC 6455 §5.2 header).
const FRAME_OVERHEAD = 14;

/** UTF-8 length of a string, exact, without encoding it when the bound is clear either way. */
function overLimit(text: string, limit: number): boolean {
  // UTF-8 takes at least one byte per UTF-16 unit and at most three.
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  return encoder.encode(text).byteLength > limit;
}

function bytesOf(data: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

/** Close codes an app may send (RFC 6455 §7.4): 1000, the registered ones a server uses, and 3000–4999. */
function sendableCode(code: number): boolean {
  return code === 1000 || (code >= 1001 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
}

/** A session's hidden side, for SessionSink; set by Session's static block. */
let inside: {
  [K in keyof SocketEvents]: (s: Session, ...args: Parameters<SocketEvents[K]>) => void;
};

/** The adapter's handle on a session: one class, so its methods are the same functions for every connection. */
class SessionSink implements SocketEvents {
  readonly #s: Session;
  constructor(s: Session) {
    this.#s = s;
  }
  message(data: string | Uint8Array): void {
    inside.message(this.#s, data);
  }
  activity(): void {
    inside.activity(this.#s);
  }
  drained(): void {
    inside.drained(this.#s);
  }
  closed(code: number, reason: string): void {
    inside.closed(this.#s, code, reason);
  }
  error(error: unknown): void {
    inside.error(this.#s, error);
  }
  shutdown(): void {
    inside.shutdown(this.#s);
  }
}

export class Session implements WSContext {
  #state: 1 | 2 | 3 = 1;
  #raw: RawSocket;
  #events: WSEvents;
  #c: Context<any, any>;
  #limits: SessionLimits;
  #heard = true;
  #pinged = false;
  #idle: ReturnType<typeof setInterval> | undefined;
  #closeTimer: ReturnType<typeof setTimeout> | undefined;
  #waiting: (() => void)[] = [];
  #poll: ReturnType<typeof setTimeout> | undefined;
  // An upper bound of the bytes queued: the queue last seen plus all sent since. Asking the runtime
  // is a native call on some (Deno, Bun); sends need to ask only once the bound passes the high-water mark.
  #bound = 0;

  constructor(
    raw: RawSocket,
    events: WSEvents,
    c: Context<any, any>,
    limits: SessionLimits,
    readonly protocol: string,
  ) {
    this.#raw = raw;
    this.#events = events;
    this.#c = c;
    this.#limits = limits;
    const idle = limits.idleTimeoutMs;
    if (idle > 0 && !raw.nativeIdle) this.#idle = setInterval(() => this.#tick(), Math.max(10, Math.floor(idle / 2)));
  }

  /** Called by the upgrade once the handshake is done. */
  open(): void {
    this.#c.emit('ws:open', () => ({ path: this.#c.path, protocol: this.protocol }));
    this.#call(() => this.#events.onOpen?.(this));
  }

  get readyState(): 1 | 2 | 3 {
    return this.#state;
  }

  get bufferedAmount(): number {
    return this.#raw.buffered();
  }

  send(data: string | ArrayBuffer | ArrayBufferView): Promise<void> {
    if (this.#state !== 1) return RESOLVED;
    let size: number;
    if (typeof data === 'string') {
      this.#raw.send(data);
      size = data.length * 3; // UTF-8 takes at most three bytes per UTF-16 unit
    } else {
      const bytes = bytesOf(data);
      this.#raw.send(bytes);
      size = bytes.byteLength;
    }
    const bound = this.#bound + size + FRAME_OVERHEAD;
    const limits = this.#limits;
    if (bound <= limits.highWaterMark) {
      this.#bound = bound;
      return RESOLVED;
    }
    const queued = this.#raw.buffered();
    this.#bound = queued;
    if (queued <= limits.highWaterMark) return RESOLVED;
    if (queued > limits.maxBufferedAmount) {
      // A client that reads nothing must not make the server hold its messages without end.
      this.#serverClose(1008, 'send buffer full');
      return RESOLVED;
    }
    return new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      if (this.#poll === undefined) this.#pollDrain();
    });
  }

  close(code = 1000, reason = ''): void {
    if (!sendableCode(code)) throw new TypeError(`WebSocket: ${code} is not a close code an app may send (1000, or 3000–4999)`);
    if (encoder.encode(reason).byteLength > 123) throw new TypeError('WebSocket: a close reason is at most 123 bytes');
    this.#serverClose(code, reason);
  }

  /** Where the adapter reports the socket's events (kept off the object handlers see). */
  readonly sink: SocketEvents = new SessionSink(this);

  static {
    // What SessionSink reaches inside a session: made once, so that with many connections each call
    // site still sees one function, where closures made per session would make it polymorphic.
    inside = {
      message: (s, data) => s.#message(data),
      activity: (s) => {
        s.#heard = true;
      },
      drained: (s) => {
        if (s.#waiting.length > 0 && s.#raw.buffered() <= s.#limits.highWaterMark) s.#wake();
      },
      closed: (s, code, reason) => s.#closed(code, reason),
      error: (s, error) => s.#error(error),
      shutdown: (s) => s.#serverClose(1001, 'server shutting down'),
    };
  }

  /** The hot path, one call from the adapter: no closure per message. */
  #message(data: string | Uint8Array): void {
    this.#heard = true;
    if (this.#state !== 1) return;
    const max = this.#limits.maxMessageSize;
    if (typeof data === 'string' ? overLimit(data, max) : data.byteLength > max) {
      this.#serverClose(1009, 'message too big');
      return;
    }
    try {
      // A method call, not `onMessage.call(events, …)`: V8 keeps the target's feedback only for
      // a direct call, and without it never inlines the app's handler here.
      const out = this.#events.onMessage?.(data, this);
      if (out instanceof Promise) out.catch(this.#reportError);
    } catch (e) {
      this.#error(e);
    }
  }

  readonly #reportError = (e: unknown) => this.#error(e);

  #closed(code: number, reason: string): void {
    if (this.#state === 3) return;
    this.#state = 3;
    clearInterval(this.#idle);
    clearTimeout(this.#closeTimer);
    clearTimeout(this.#poll);
    this.#wake();
    this.#c.emit('ws:close', () => ({ path: this.#c.path, code, reason }));
    this.#call(() => this.#events.onClose?.({ code, reason }, this));
  }

  #error(error: unknown): void {
    this.#c.emit('ws:error', () => ({ path: this.#c.path, error }));
    try {
      const out = this.#events.onError?.(error, this);
      if (out instanceof Promise) out.catch(() => {});
    } catch {
      // an error handler that fails has nowhere left to report
    }
  }

  /** The server's own close: closing handshake, then a hard drop if the peer never answers. */
  #serverClose(code: number, reason: string): void {
    if (this.#state !== 1) return;
    this.#state = 2;
    this.#raw.close(code, reason);
    this.#closeTimer = setTimeout(() => this.#raw.terminate(), CLOSE_GRACE_MS);
  }

  /** Half the idle timeout passed: quiet once means ping, quiet twice means gone. */
  #tick(): void {
    if (this.#heard) {
      this.#heard = false;
      this.#pinged = false;
      return;
    }
    if (!this.#pinged) {
      this.#pinged = true;
      this.#raw.ping?.();
      return;
    }
    this.#serverClose(1001, 'idle timeout');
  }

  #pollDrain(): void {
    this.#poll = setTimeout(
      () => {
        this.#poll = undefined;
        if (this.#waiting.length === 0) return;
        if (this.#state === 3 || this.#raw.buffered() <= this.#limits.highWaterMark) this.#wake();
        else this.#pollDrain();
      },
      this.#raw.drainEvents ? DRAIN_FALLBACK_MS : DRAIN_POLL_MS,
    );
  }

  #wake(): void {
    clearTimeout(this.#poll);
    this.#poll = undefined;
    const list = this.#waiting;
    this.#waiting = [];
    for (const w of list) w();
  }

  /** Run a handler: whatever it throws or rejects goes to onError and `ws:error`, never to the runtime. */
  #call(fn: () => void | Promise<void> | undefined): void {
    try {
      const out = fn();
      if (out instanceof Promise) out.catch(this.#reportError);
    } catch (e) {
      this.#error(e);
    }
  }
}
