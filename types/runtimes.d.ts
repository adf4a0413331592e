// Minimal ambient declarations for the Deno and Bun globals that example and
// bench entry files use, so the whole repo type-checks under one tsconfig
// without pulling in either runtime's full type package. Adapters declare
// their own, narrower shapes locally.
declare namespace Deno {
  interface ServeInfo {
    remoteAddr: { hostname: string; port: number };
  }
  interface Server {
    finished: Promise<void>;
    shutdown(): Promise<void>;
    addr: { port: number; hostname: string };
  }
  function serve(
    options: { port?: number; hostname?: string; signal?: AbortSignal; onListen?: (addr: { port: number; hostname: string }) => void },
    handler: (request: Request, info: ServeInfo) => Response | Promise<Response>,
  ): Server;
  function serve(handler: (request: Request, info: ServeInfo) => Response | Promise<Response>): Server;
  const env: { get(name: string): string | undefined; toObject(): Record<string, string> };
  const args: string[];
  const pid: number;
  function exit(code?: number): never;
  function readTextFile(path: string): Promise<string>;
  function stat(path: string): Promise<{ isFile: boolean; size: number; mtime: Date | null }>;
  function open(path: string): Promise<{ readable: ReadableStream<Uint8Array> }>;
  function addSignalListener(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void;
  const version: { deno: string; v8: string; typescript: string };
}
declare const Bun: {
  serve(options: { port?: number; hostname?: string; fetch: (request: Request, server: unknown) => Response | Promise<Response>; reusePort?: boolean }): {
    port: number;
    hostname: string;
    stop(force?: boolean): Promise<void>;
  };
  env: Record<string, string | undefined>;
  version: string;
  file(path: string): Blob;
};
