import type { App } from '../../src/core/app.ts';

import type { ServerDriver } from './server.ts';

/** The part of Node's and Bun's `process` this needs. */
interface ProcessEvents {
  on(event: string, listener: (error: unknown) => void): unknown;
  off(event: string, listener: (error: unknown) => void): unknown;
  exit(code?: number): unknown;
}

interface ErrorScope {
  addEventListener?(type: string, listener: (event: any) => void): void;
  removeEventListener?(type: string, listener: (event: any) => void): void;
}

/**
 * Report the global scope's unhandled rejections and uncaught errors as
 * `process:error`, where the runtime raises them as web events (Deno,
 * `deno serve` and Deno Deploy, Cloudflare Workers). A rejection is logged and
 * the server keeps serving; an uncaught error keeps the runtime's own handling.
 */
export function watchGlobalErrors(app: App<any>, runtime: string): () => void {
  const scope = globalThis as ErrorScope;
  if (typeof scope.addEventListener !== 'function') return () => {};
  const onRejection = (event: PromiseRejectionEvent) => {
    event.preventDefault?.();
    app.events?.emit('process:error', { runtime, source: 'unhandledRejection', error: event.reason });
    console.error('Unhandled rejection:', event.reason);
  };
  const onError = (event: ErrorEvent) => app.events?.emit('process:error', { runtime, source: 'uncaughtException', error: event.error });
  scope.addEventListener('unhandledrejection', onRejection);
  scope.addEventListener('error', onError);
  return () => {
    scope.removeEventListener?.('unhandledrejection', onRejection);
    scope.removeEventListener?.('error', onError);
  };
}

/**
 * The same for Node and Bun, whose `process` raises them. A rejection is
 * logged and the server keeps serving; an uncaught exception still ends the
 * process as the runtime's default does (the monitor only watches).
 */
export function watchProcessErrors(app: App<any>, runtime: string, proc: ProcessEvents): () => void {
  const onRejection = (error: unknown) => {
    app.events?.emit('process:error', { runtime, source: 'unhandledRejection', error });
    console.error('Unhandled rejection:', error);
  };
  const onException = (error: unknown) => app.events?.emit('process:error', { runtime, source: 'uncaughtException', error });
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtExceptionMonitor', onException);
  return () => {
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtExceptionMonitor', onException);
  };
}

/** The lifecycle parts Node and Bun share through `process`: signals, exit and the error watcher. */
export function processHooks(runtime: string, proc: ProcessEvents): Pick<ServerDriver, 'onSignal' | 'exit' | 'watchErrors'> {
  return {
    onSignal(handler) {
      proc.on('SIGINT', handler);
      proc.on('SIGTERM', handler);
      return () => {
        proc.off('SIGINT', handler);
        proc.off('SIGTERM', handler);
      };
    },
    exit: (code) => {
      proc.exit(code);
    },
    watchErrors: (target) => watchProcessErrors(target, runtime, proc),
  };
}
