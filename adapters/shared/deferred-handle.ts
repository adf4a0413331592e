import type { ServeHandle } from './serve-options.ts';

/**
 * The handle of a server that starts once `start` resolves (code loaded on demand), usable at
 * once: `port`, `hostname` and `url` are 0 and '' until then, `ready` waits for the server's own,
 * and `close()` stops it once it exists. When `start` fails, `ready` rejects with its error.
 *
 * @example
 * return deferredHandle(import('./processes.ts').then((group) => group.serveGroup(options, 2, launch)));
 */
export function deferredHandle(start: Promise<ServeHandle>): ServeHandle & { readonly pids: number[] } {
  let inner: ServeHandle | undefined;
  const started = start.then((h) => (inner = h));
  return {
    get port() {
      return inner?.port ?? 0;
    },
    get hostname() {
      return inner?.hostname ?? '';
    },
    get url() {
      return inner?.url ?? '';
    },
    /** A group's children, once it started (none for a single server). */
    get pids() {
      return (inner as { pids?: number[] } | undefined)?.pids ?? [];
    },
    ready: started.then((h) => h.ready),
    close: () =>
      started.then(
        (h) => h.close(),
        () => undefined,
      ),
    finished: started.then(
      (h) => h.finished,
      () => undefined,
    ),
  };
}
