import type { ExecutionContext } from '../src/context.ts';

/** Options every runtime's `serve()` takes. */
export interface ServeOptions {
  /** Port to listen on (default 8000; 0 picks a free one). */
  port?: number;
  /** Address to bind (default 0.0.0.0). */
  hostname?: string;
  /** Stops the server when aborted, like `close()`. */
  signal?: AbortSignal;
  /** Called once listening; the default logs the address. */
  onListen?: (address: { port: number; hostname: string }) => void;
  /** Passed to handlers as `c.env` (default: the process environment). */
  env?: Record<string, unknown>;
  /** How long shutdown waits for in-flight requests before cutting them (default 10 s). */
  shutdownTimeoutMs?: number;
  /** Shut down gracefully and exit on SIGINT/SIGTERM (default true). */
  handleSignals?: boolean;
}

export interface ServeHandle {
  /** The bound port, once listening. */
  readonly port: number;
  readonly hostname: string;
  /** Stop accepting, let in-flight requests finish (bounded), then resolve. */
  close(): Promise<void>;
  /** Resolves once the server has stopped. */
  readonly finished: Promise<void>;
}

/** The server's URL, with an IPv6 address in brackets. */
export function listenUrl(hostname: string, port: number): string {
  return `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}/`;
}

export function listenMessage({ port, hostname }: { port: number; hostname: string }): void {
  console.log(`Listening on ${listenUrl(hostname, port)}`);
}

/** `c.executionCtx` where the runtime gives none: background work joins `pending`, which shutdown waits for. */
export function backgroundContext(pending: Set<Promise<unknown>>): ExecutionContext {
  return {
    waitUntil(promise) {
      const p = promise.catch(() => {}).finally(() => pending.delete(p));
      pending.add(p);
    },
    passThroughOnException() {},
  };
}
