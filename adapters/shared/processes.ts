// serve(app, { processes: processGroup(N) }): N server processes on one port, for Node
// (node:cluster, node/processes.ts), Bun and Deno (children with SO_REUSEPORT). Only the
// rove/<runtime>/processes entries import this file: an app without a group never loads it.
// The first process becomes the primary: it serves nothing, starts the
// children, restarts one that dies, and on SIGINT/SIGTERM or close() asks each
// to shut down gracefully and waits for them. A child takes signals from the
// primary only: Ctrl-C reaches the whole process group, and the primary's
// SIGTERM is the one that counts, so one Ctrl-C is one graceful shutdown.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, cpus } from 'node:os';
import process from 'node:process';
import { CHILD_ENV, checkProcesses, PORT_ENV } from './process-env.ts';
import type { GroupRole, GroupRuntime, ProcessGroup } from './serve-options.ts';
import { listenMessage, listenUrl, type ServeHandle, type ServeOptions } from './serve-options.ts';

/** Set in a child's environment: its index in the group. */
export { CHILD_ENV } from './process-env.ts';

/** Restart a dying child at most this often in a minute before giving up on the group. */
const MAX_RESTARTS_PER_MINUTE = 10;

/** What processGroup() takes: a number of server processes, or 'auto' for one per core. */
export type ProcessCount = number | 'auto';

/**
 * How many server processes `processes` asks for: 'auto' is one per core
 * (os.availableParallelism()); anything below 2 means this process serves alone.
 *
 * @example
 * processCount('auto'); // 2 on a two-core machine
 */
export function processCount(processes: ProcessCount | undefined): number {
  if (processes === undefined) return 1;
  if (processes === 'auto') return typeof availableParallelism === 'function' ? availableParallelism() : cpus().length || 1;
  checkProcesses(processes);
  return processes;
}

/**
 * The group value a runtime's processGroup() returns: `isChild` tells a child of this group
 * (which re-ran the entry and so calls serve() with the same group), `launch` starts one.
 *
 * @example
 * export const processGroup = (n: ProcessCount) => makeGroup('bun', n, () => childIndex() !== undefined, () => spawnLaunch());
 */
export function makeGroup<R extends GroupRuntime>(runtime: R, processes: ProcessCount, isChild: () => boolean, launch: () => Launch): ProcessGroup<R> {
  const count = processCount(processes); // a bad count throws here, where it was written
  return {
    kind: 'rove:process-group',
    runtime,
    count,
    join<O extends ServeOptions>(options: O): GroupRole<O> {
      if (isChild()) return { child: { options: childOptions(options), onSignal: childSignals, listening: reportListening, index: childIndex() ?? 0 } };
      return count > 1 ? { primary: serveGroup(options, count, launch()) } : { alone: true };
    },
  };
}

/** This process's index when it is a child of a server group, else undefined. */
export function childIndex(): number | undefined {
  const v = env(CHILD_ENV);
  return v === undefined ? undefined : Number(v);
}

/** An environment variable, or undefined where reading it is not allowed (Deno without --allow-env). */
function env(name: string): string | undefined {
  try {
    return process.env[name];
  } catch {
    return undefined;
  }
}

/**
 * The options a child serves with: the group's port, and no listen message
 * (the primary prints one for the group).
 */
export function childOptions<O extends ServeOptions>(options: O): O {
  const port = Number(env(PORT_ENV));
  return { ...options, port: Number.isInteger(port) && port > 0 ? port : options.port, onListen: () => {}, processes: undefined };
}

/**
 * A child's `onSignal`: shut down on SIGTERM or when the primary asks or goes
 * away; ignore SIGINT, which a terminal sends to the whole group at once.
 */
export function childSignals(handler: () => void): () => void {
  // The first request to stop, whatever its source, starts a graceful shutdown; only a
  // further SIGTERM (the primary's second signal) counts again and cuts. Deno may report
  // the channel's disconnect alongside the primary's SIGTERM: that must not count twice.
  let asked = false;
  let terms = 0;
  const once = () => {
    if (asked) return;
    asked = true;
    handler();
  };
  const onTerm = () => {
    if (terms++ === 0) once();
    else handler();
  };
  const onMessage = (m: unknown) => {
    if (m === 'rove:shutdown') once();
  };
  const ignore = () => {};
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', ignore);
  process.on('message', onMessage);
  process.on('disconnect', once);
  return () => {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', ignore);
    process.off('message', onMessage);
    process.off('disconnect', once);
  };
}

/** Tells the primary this child listens (no-op outside a group). */
export function reportListening(port: number): void {
  if (childIndex() !== undefined) process.send?.({ rove: 'listening', port });
}

/** One child as the primary sees it. */
export interface Member {
  readonly pid: number | undefined;
  /** Resolves with the port once the child listens; rejects if it exits first. */
  readonly listening: Promise<number>;
  /** Resolves when the child has exited. */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  signal(sig: 'SIGTERM' | 'SIGKILL'): void;
}

/** How a runtime starts one child: node:cluster on Node, a spawned copy of this command elsewhere. */
export type Launch = (index: number, env: Record<string, string>) => Member;

/** A free loopback-or-any port for the group, when the caller asked for port 0. */
function freePort(hostname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, hostname, () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Run `count` children through `launch` and give the caller the same handle a
 * single server gives: `ready` once every child listens, `close()` stops them all.
 */
export function serveGroup(options: ServeOptions, count: number, launch: Launch): ServeHandle & { readonly pids: number[] } {
  const hostname = options.hostname ?? '0.0.0.0';
  const grace = options.shutdownTimeoutMs ?? 10_000;
  const members = new Map<number, Member>();
  let closing: Promise<void> | undefined;
  let resolveFinished!: () => void;
  const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
  const restarts: number[] = [];
  let unsignal = () => {};

  const handle = {
    port: 0,
    hostname,
    url: '',
    ready: undefined as unknown as Promise<void>,
    finished,
    get pids() {
      return [...members.values()].map((m) => m.pid).filter((p): p is number => p !== undefined);
    },
    close: (): Promise<void> => (closing ??= shutdown()),
  };

  function start(index: number, port: number): Member {
    const m = launch(index, { [CHILD_ENV]: String(index), [PORT_ENV]: String(port) });
    members.set(index, m);
    m.exited.then(({ code, signal }) => {
      if (members.get(index) !== m || closing) return;
      members.delete(index);
      const now = Date.now();
      while (restarts.length && now - restarts[0]! > 60_000) restarts.shift();
      if (restarts.length >= MAX_RESTARTS_PER_MINUTE) {
        console.error(`rove: server process ${m.pid} exited (${signal ?? code}); too many restarts, stopping the group`);
        void handle.close();
        return;
      }
      restarts.push(now);
      console.error(`rove: server process ${m.pid} exited (${signal ?? code}); starting another`);
      start(index, port).listening.catch(() => {});
    });
    return m;
  }

  async function shutdown(): Promise<void> {
    const all = [...members.values()];
    for (const m of all) m.signal('SIGTERM');
    const done = Promise.all(all.map((m) => m.exited));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), grace + 1000)));
    if ((await Promise.race([done, late])) === 'late') {
      for (const m of all) m.signal('SIGKILL');
      await done;
    }
    clearTimeout(timer);
    unsignal();
    resolveFinished();
  }

  if (options.handleSignals !== false) {
    let signals = 0;
    const onSignal = () => {
      signals++;
      if (signals === 1) {
        handle.close().then(() => process.exit(0));
        return;
      }
      // A second signal: the children cut their in-flight requests; a third: kill them.
      for (const m of members.values()) m.signal(signals === 2 ? 'SIGTERM' : 'SIGKILL');
      if (signals >= 3) process.exit(1);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    unsignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
  }
  if (options.signal) {
    if (options.signal.aborted) queueMicrotask(() => void handle.close());
    else options.signal.addEventListener('abort', () => void handle.close(), { once: true });
  }

  handle.ready = (async () => {
    const port = options.port === 0 ? await freePort(hostname) : (options.port ?? 8000);
    const first = Array.from({ length: count }, (_, i) => start(i, port));
    try {
      await Promise.all(first.map((m) => m.listening));
    } catch (error) {
      await handle.close();
      throw error;
    }
    handle.port = port;
    handle.url = listenUrl(hostname, port);
    (options.onListen ?? listenMessage)({ port, hostname });
  })();
  return handle;
}

/**
 * This process's command line, to start a copy of it: /proc/self/cmdline on
 * Linux (every runtime flag kept), else the runtime's own view of it.
 */
export function ownCommand(): string[] {
  try {
    const argv = readFileSync('/proc/self/cmdline', 'utf8').split('\0');
    if (argv[argv.length - 1] === '') argv.pop();
    if (argv.length > 1) return [process.execPath, ...argv.slice(1)];
  } catch {
    // not Linux
  }
  return [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
}

/**
 * Bun's and Deno's children: copies of this command (`command()`) with an IPC
 * channel, each listening with SO_REUSEPORT.
 */
export function spawnLaunch(command: () => string[] = ownCommand): Launch {
  return (_index, env) => {
    const [bin, ...args] = command();
    const child = spawn(bin!, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
    const listening = new Promise<number>((resolve, reject) => {
      child.on('message', (m: { rove?: string; port?: number }) => {
        if (m?.rove === 'listening' && typeof m.port === 'number') resolve(m.port);
      });
      exited.then(({ code, signal }) => reject(new Error(`server process ${child.pid} exited before listening (${signal ?? code})`)));
    });
    listening.catch(() => {});
    return {
      pid: child.pid,
      listening,
      exited,
      signal(sig) {
        try {
          child.kill(sig);
        } catch {
          // already gone
        }
      },
    };
  };
}
