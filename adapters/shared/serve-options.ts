import type { ExecutionContext } from '../../src/core/context.ts';
import { keep } from './background.ts';

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
  /** Shut down gracefully and exit on SIGINT/SIGTERM (default true). A second signal cuts at once. */
  handleSignals?: boolean;
  /**
   * Hang up on a client whose request headers are not complete after this long (default 60 s; 0: never).
   * Node only: Deno and Bun give no such knob (see the README).
   */
  headersTimeoutMs?: number;
  /** Hang up on a client whose whole request is not received after this long (default 300 s; 0: never). Node only. */
  requestTimeoutMs?: number;
  /**
   * Close a connection idle this long. Node: between keep-alive requests (default 5 s).
   * Bun: any silence on the socket, a running handler included (default 10 s, at most 255 s).
   */
  idleTimeoutMs?: number;
  /**
   * Serve with several processes on one port: `processGroup(n)` or `processGroup('auto')` (one
   * per core) from `rove/node/processes`, `rove/deno/processes` or `rove/bun/processes` (default:
   * this process alone). The process that calls serve() becomes the primary: it starts the others,
   * restarts one that dies and stops them all on SIGINT/SIGTERM or `close()`. Node uses
   * node:cluster, Bun and Deno SO_REUSEPORT (see docs/processes.md). A value passed in, so an app
   * without it bundles none of that code. Workers and Deno Deploy scale by isolates instead.
   *
   * @example
   * import { processGroup } from 'rove/node/processes';
   * serve(app, { port: 8000, processes: processGroup('auto') });
   */
  processes?: ProcessGroup;
}

/** The runtimes that run server groups (Workers and Deno Deploy scale by isolates instead). */
export type GroupRuntime = 'node' | 'deno' | 'bun';

/** How a child of the group serves: made by the group, used by the runtime's serve(). */
export interface GroupChild<O extends ServeOptions = ServeOptions> {
  /** The options to serve with: the group's port, no listen message of its own. */
  readonly options: O;
  /** The child's signal handling: it stops when the primary says so, and ignores the terminal's Ctrl-C. */
  onSignal(handler: () => void): () => void;
  /** Tells the primary this child listens. */
  listening(port: number): void;
  /** Its place in the group, from 0: the app's scheduled tasks run in child 0 alone. */
  readonly index: number;
}

/** What joining a group makes of this process. */
export type GroupRole<O extends ServeOptions = ServeOptions> =
  | { readonly primary: ServeHandle & { readonly pids: number[] } }
  | { readonly child: GroupChild<O> }
  /** A group of one ('auto' on one core): serve alone. */
  | { readonly alone: true };

/** A server group for one runtime: `processGroup(n)` from `rove/<runtime>/processes`. */
export interface ProcessGroup<R extends GroupRuntime = GroupRuntime> {
  readonly kind: 'rove:process-group';
  readonly runtime: R;
  /** How many server processes (1 serves alone). */
  readonly count: number;
  /** Called by serve(): start the children in the primary, or learn how this child serves. */
  join<O extends ServeOptions>(options: O): GroupRole<O>;
}

/**
 * `options.processes`, checked: a ProcessGroup for `runtime`, or undefined. A plain count (the
 * option's old shape) or another runtime's group throws, saying what to import.
 */
export function groupOption(runtime: GroupRuntime, options: ServeOptions): ProcessGroup | undefined {
  // A server without a group (most) never compiles the check.
  return options.processes === undefined ? undefined : checkedGroup(runtime, options.processes);
}

function checkedGroup(runtime: GroupRuntime, given: unknown): ProcessGroup {
  const fix = `import { processGroup } from 'rove/${runtime}/processes' and pass serve(app, { processes: processGroup(${typeof given === 'number' ? given : "'auto'"}) })`;
  if (typeof given !== 'object' || given === null || (given as ProcessGroup).kind !== 'rove:process-group') {
    throw new TypeError(`serve(): processes takes a process group, not ${JSON.stringify(given) ?? String(given)}: ${fix}`);
  }
  const group = given as ProcessGroup;
  if (group.runtime !== runtime) throw new TypeError(`serve(): this process group is rove/${group.runtime}'s, and this is rove/${runtime}: ${fix}`);
  return group;
}

export interface ServeHandle {
  /** The bound port, once listening. */
  readonly port: number;
  readonly hostname: string;
  /** `http://hostname:port/` once listening (IPv6 in brackets); '' before. */
  readonly url: string;
  /** Resolves once listening; rejects when the server could not listen. */
  readonly ready: Promise<void>;
  /** Stop accepting, let in-flight requests finish (bounded by `shutdownTimeoutMs`), then resolve. */
  close(): Promise<void>;
  /** Resolves once the server has stopped. */
  readonly finished: Promise<void>;
}

/** The timeouts in effect, in ms (0: off), clamped as node:http requires (headers ≤ request). */
export function timeouts(options: ServeOptions): { headers: number; request: number; idle: number | undefined } {
  const request = options.requestTimeoutMs ?? 300_000;
  let headers = options.headersTimeoutMs ?? 60_000;
  if (request > 0 && headers > request) headers = request;
  return { headers, request, idle: options.idleTimeoutMs };
}

/** The server's URL, with an IPv6 address in brackets. */
export function listenUrl(hostname: string, port: number): string {
  return `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}/`;
}

export function listenMessage({ port, hostname }: { port: number; hostname: string }): void {
  console.log(`Listening on ${listenUrl(hostname, port)}`);
}

/**
 * `c.executionCtx` where the runtime gives none: background work joins `pending`, which shutdown
 * waits for. A rejection is logged, not dropped.
 */
export function backgroundContext(pending: Set<Promise<unknown>>): ExecutionContext {
  return {
    waitUntil(promise) {
      keep(
        pending,
        Promise.resolve(promise).catch((error) => console.error('rove: background work (waitUntil) failed:', error)),
        'background work of a request',
      );
    },
    passThroughOnException() {},
  };
}
