import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { App, BoundHandler } from '../../src/core/app.ts';
// Types only: node:worker_threads (rove/node/threads), `ws` and the group code load when the app
// passes them in, so a bundle without them has none of them.
import type { ThreadSpawner } from '../../src/threads/pool.ts';
import { upgradeOf } from '../../src/websocket/protocol.ts';
import { startTimers } from '../shared/background.ts';
import { checkUnlessBuilt } from '../shared/checked-response.ts';
import { processHooks } from '../shared/global-errors.ts';
import { ASTERISK, BAD_HOST, BAD_TARGET, invalidHost, refusal } from '../shared/request-check.ts';
import { backgroundContext, groupOption, type ServeHandle, type ServeOptions as SharedOptions, timeouts } from '../shared/serve-options.ts';
import { type ServerDriver, startServer } from '../shared/server.ts';
import { OpenSockets } from '../shared/websockets.ts';
import { firstHeader, NodeRequest, nodeHeader, targetAuthority } from './request.ts';
import { respondLight } from './response.ts';
import { checkWebSockets, NO_WEBSOCKETS, notUpgraded, noWebSockets } from './upgrade-refusal.ts';
import type { NodeWebSockets } from './websocket.ts';
import { fail, write } from './write.ts';

export type { ServeHandle } from '../shared/serve-options.ts';
export type { NodeWebSockets } from './websocket.ts';

/** serve()'s options on Node. */
export interface ServeOptions extends SharedOptions {
  /**
   * Complete WebSocket upgrades, through the `ws` package: `webSockets` from `rove/node/websocket`.
   * Without it a WebSocket route answers its upgrade with a 501 and one logged line. Deno, Bun and
   * Workers have WebSockets of their own and need no such option.
   *
   * @example
   * import { webSockets } from 'rove/node/websocket';
   * serve(app, { port: 8000, webSockets });
   */
  webSockets?: NodeWebSockets;
  /**
   * Threads for the app's thread pool (`new App({ threads })`): `threads` from `rove/node/threads`,
   * node:worker_threads. An app with a pool needs it on Node, and `serve()` throws without it; an
   * app without one loads no thread code. Deno and Bun start their pool's Web Workers themselves.
   *
   * @example
   * import { threads } from 'rove/node/threads';
   * serve(app, { port: 8000, threads });
   */
  threads?: ThreadSpawner;
}

export { NodeResponse } from './response.ts';

/**
 * The node:http request listener for an app, for use with your own server.
 * `serve()` uses it; it refuses a bad Host or `OPTIONS *` with a 400 before the app runs.
 *
 * @example
 * import { createServer } from 'node:http';
 * createServer(toNodeListener(app)).listen(8000);
 */
export function toNodeListener(
  app: App<any>,
  env: unknown = process.env,
  pending: Set<Promise<unknown>> = new Set(),
): (incoming: IncomingMessage, res: ServerResponse) => void {
  return nodeListener(app, env, pending, false);
}

/**
 * The listener for node's 'request' event, or for its 'checkContinue' event (`waiting`): there the
 * client waits for `100 Continue`, which goes out only when the app reads the body, so a body the
 * app refuses by its declared length (413) is never sent.
 */
function nodeListener(app: App<any>, env: unknown, pending: Set<Promise<unknown>>, waiting: boolean): (incoming: IncomingMessage, res: ServerResponse) => void {
  const ctx = backgroundContext(pending);
  const handle = nodeHandler(app);
  return (incoming: IncomingMessage, res: ServerResponse): void => {
    const host = firstHeader(incoming, 'host');
    if (host !== undefined && invalidHost(host)) {
      refuse(res, BAD_HOST);
      return;
    }
    const target = incoming.url ?? '';
    if (target.charCodeAt(0) !== 0x2f) {
      const authority = targetAuthority(target);
      if (authority === null || invalidHost(authority)) {
        refuse(res, target === '*' ? ASTERISK : BAD_TARGET);
        return;
      }
    }
    const request = new NodeRequest(incoming, res, host, waiting);
    let out: Response | Promise<Response>;
    try {
      out = handle(request, env, ctx, incoming);
    } catch (error) {
      fail(res, dev(app, error)); // the handler never throws; this is for a broken app object
      return;
    }
    if (out instanceof Promise) {
      out.then(
        (r) => answer(r, request, res, app),
        (error) => fail(res, dev(app, error)),
      );
      return;
    }
    answer(out, request, res, app);
  };
}

/**
 * Send the app's answer. An error answered while the body was unread waits until the rest is
 * dropped: node would close with bytes unread, and the client's TCP stack would throw the answer
 * away with the reset that follows.
 */
function answer(result: Response, request: NodeRequest, res: ServerResponse, app: App<any>): void {
  const head = request.incoming.method === 'HEAD';
  const dropping = result.status >= 400 ? request.drop() : undefined;
  if (dropping === undefined) send(result, res, head, app);
  else dropping.then(() => send(result, res, head, app));
}

/**
 * The node:http 'upgrade' listener for an app: `serve()` installs it. The request runs through
 * the app like any other; a WebSocket route's answer completes the upgrade through `webSockets`
 * (from `rove/node/websocket`), any other answer is written to the socket as a normal response,
 * which then closes. Without `webSockets`, a WebSocket route answers 501 and one line is logged.
 *
 * @example
 * import { webSockets } from 'rove/node/websocket';
 * const server = createServer(toNodeListener(app));
 * server.on('upgrade', toNodeUpgradeListener(app, webSockets));
 */
export function toNodeUpgradeListener(
  app: App<any>,
  webSockets?: NodeWebSockets,
  env: unknown = process.env,
  pending: Set<Promise<unknown>> = new Set(),
  open: OpenSockets = new OpenSockets(),
): (incoming: IncomingMessage, socket: Duplex, head: Buffer) => void {
  checkWebSockets(webSockets);
  const ctx = backgroundContext(pending);
  const handle = nodeHandler(app);
  let told = false;
  return (incoming: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => {}); // a reset before the answer is nobody's error
    // A response on the raw socket, written by node:http's own code, for every answer that is not a 101.
    const res = new ServerResponse(incoming);
    res.assignSocket(socket as never);
    res.shouldKeepAlive = false;
    // The socket carries no further request: close it once the answer is written.
    res.on('finish', () => (socket as Duplex & { destroySoon(): void }).destroySoon());
    const host = firstHeader(incoming, 'host');
    if (host !== undefined && invalidHost(host)) {
      refuse(res, BAD_HOST);
      return;
    }
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
      // node:http did not parse a body for an upgrade: refuse rather than read nothing.
      refuse(res, 'Upgrade is only read on GET and HEAD requests');
      return;
    }
    const target = incoming.url ?? '';
    if (target.charCodeAt(0) !== 0x2f) {
      refuse(res, target === '*' ? ASTERISK : BAD_TARGET);
      return;
    }
    const done = (r: Response) => {
      const upgrade = upgradeOf(r);
      if (upgrade === undefined || incoming.method !== 'GET') return send(r, res, incoming.method === 'HEAD', app);
      if (webSockets === undefined) {
        if (!told) console.error(`rove: GET ${incoming.url} is a WebSocket route, but ${NO_WEBSOCKETS}`);
        told = true;
        return send(noWebSockets(), res, false, app);
      }
      res.detachSocket(socket as never);
      webSockets.upgrade(upgrade, incoming, socket, head, open).catch(() => socket.destroy());
    };
    let out: Response | Promise<Response>;
    try {
      out = handle(new NodeRequest(incoming, res, host), env, ctx, incoming);
    } catch (error) {
      fail(res, dev(app, error));
      return;
    }
    if (out instanceof Promise) out.then(done, (error) => fail(res, dev(app, error)));
    else done(out);
  };
}

const bound = new WeakMap<App<any>, BoundHandler>();

/** The app bound for node:http, once per app: light responses, the socket's peer, Node's header check. */
function nodeHandler(app: App<any>): BoundHandler {
  let handle = bound.get(app);
  if (handle === undefined) {
    checkPool(app);
    handle = app.bind({
      // `info` is the IncomingMessage: its socket is the peer.
      address: (_request, info) => (info as IncomingMessage | undefined)?.socket?.remoteAddress,
      header: nodeHeader,
      // The context checks every header it puts in a record (checkHeader): no second check per response.
      respond: respondLight,
      finish: checkUnlessBuilt,
    });
    bound.set(app, handle);
  }
  return handle;
}

/**
 * `options.threads`, checked: the spawner from rove/node/threads, or undefined. An app whose pool
 * has no threads to run on is refused here, when the server is made, rather than found out as every
 * task running inline on the request thread: on Node the threads are a value passed in, as
 * processGroup and webSockets are, so an app without a pool loads no node:worker_threads.
 */
function threadsOption(app: App<any>, threads: ThreadSpawner | undefined): ThreadSpawner | undefined {
  if (threads !== undefined && (typeof threads !== 'object' || threads === null || typeof threads.spawn !== 'function')) {
    throw new TypeError(`serve(): threads takes the threads from rove/node/threads, not ${String(threads)}: ${THREADS_FIX}`);
  }
  if (threads === undefined) checkPool(app);
  return threads;
}

const THREADS_FIX = "import { threads } from 'rove/node/threads' and pass serve(app, { threads })";

/** An app whose pool was never given threads cannot be served on Node: say what to pass. */
function checkPool(app: App<any>): void {
  const mode = app.settings.threads?.mode;
  if (mode === undefined || mode === 'threads' || mode === 'closed') return;
  throw new TypeError(
    `rove/node: this app has a thread pool (new App({ threads })), and on Node its threads are passed in: ${THREADS_FIX}` +
      ' (with a server of your own, call pool.start(threads) before toNodeListener(app))',
  );
}

function send(result: Response, res: ServerResponse, head: boolean, app: App<any>): void {
  // A WebSocket route reached through 'request': the server has no 'upgrade' listener of ours.
  if (upgradeOf(result) !== undefined) result = notUpgraded();
  try {
    const writing = write(result, res, head);
    if (writing) writing.catch((error) => fail(res, dev(app, error)));
  } catch (error) {
    fail(res, dev(app, error));
  }
}

/** The error to show in the 500: only in dev mode. */
function dev(app: App<any>, error: unknown): unknown {
  return app.settings.dev ? error : undefined;
}

function refuse(res: ServerResponse, detail: string): void {
  const r = refusal(detail);
  res.writeHead(r.status, { ...r.headers, connection: 'close' });
  res.end(r.body);
}

/**
 * Serve an app on node:http. Stops on `signal`, `close()`, SIGINT or SIGTERM,
 * letting in-flight requests finish for up to `shutdownTimeoutMs`.
 * With `processes` (processGroup() from `rove/node/processes`), node:cluster runs that many
 * servers on the port; this process becomes their primary and has no `server` of its own.
 * WebSocket routes need `webSockets` from `rove/node/websocket`, and an app with a thread pool
 * needs `threads` from `rove/node/threads`.
 *
 * @example
 * const server = serve(app, { port: 8000, headersTimeoutMs: 10_000 });
 * await server.ready;
 * console.log(server.url);
 * // one server process per core, with WebSockets:
 * import { processGroup } from 'rove/node/processes';
 * import { webSockets } from 'rove/node/websocket';
 * serve(app, { port: 8000, processes: processGroup('auto'), webSockets });
 */
export function serve(app: App<any>, options: ServeOptions & { processes: NonNullable<ServeOptions['processes']> }): ServeHandle & { server?: Server };
export function serve(app: App<any>, options?: ServeOptions): ServeHandle & { server: Server };
export function serve(app: App<any>, options: ServeOptions = {}): ServeHandle & { server?: Server } {
  checkWebSockets(options.webSockets);
  const threads = threadsOption(app, options.threads);
  const role = groupOption('node', options)?.join(options);
  if (role !== undefined && 'primary' in role) return role.primary;
  const child = role !== undefined && 'child' in role ? role.child : undefined;
  if (child !== undefined) options = child.options;
  if (threads !== undefined) app.settings.threads?.start(threads);
  const pending = new Set<Promise<unknown>>();
  const t = timeouts(options);
  const shortest = Math.min(t.headers || Infinity, t.request || Infinity);
  const server = createServer(
    {
      headersTimeout: t.headers,
      requestTimeout: t.request,
      // Node checks those two only this often (default 30 s): check often enough to cut near the limit.
      connectionsCheckingInterval: shortest === Infinity ? 30_000 : Math.max(50, Math.min(30_000, Math.floor(shortest / 10))),
    },
    nodeListener(app, options.env ?? process.env, pending, false),
  );
  server.on('checkContinue', nodeListener(app, options.env ?? process.env, pending, true));
  const sockets = new OpenSockets();
  server.on('upgrade', toNodeUpgradeListener(app, options.webSockets, options.env ?? process.env, pending, sockets));
  if (t.idle !== undefined) server.keepAliveTimeout = t.idle;
  let sweep: ReturnType<typeof setInterval> | undefined;
  const driver: ServerDriver = {
    runtime: 'node',
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 8000, options.hostname ?? '0.0.0.0', () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          resolve({ port: address.port, hostname: options.hostname ?? address.address });
        });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        // Open WebSockets close with 1001 (going away); server.close waits for them.
        void sockets.shutdown();
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        // Keep-alive sockets become idle as their last response ends: close them as they do.
        server.closeIdleConnections();
        sweep = setInterval(() => server.closeIdleConnections(), 50);
      }),
    cut: () => {
      sockets.terminate();
      server.closeAllConnections();
    },
    ...processHooks('node', process),
    ...(child !== undefined ? { onSignal: child.onSignal } : {}),
    // In a group, one process runs the schedule.
    ...(child === undefined || child.index === 0 ? { startTasks: () => startTimers(app, options.env ?? process.env, pending) } : {}),
  };
  return Object.assign(startServer(app, options, pending, driver), { server });
}
