// Starts the static test app on one runtime over a temporary copy of the
// fixture, with what git cannot hold made on the spot: symlinks pointing out
// of the root, a big file, precompressed siblings, an empty directory.
// Workers run under Miniflare with the copy as the [assets] directory.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Miniflare } from 'miniflare';
import { freePort, ROOT } from '../../../dev/proc.ts';
import { bundleWorker } from '../../../dev/workerd.ts';
import { type Runtime, start } from '../../conformance/servers.ts';

export const FIXTURE = join(ROOT, 'test/middleware/static/fixture/public');
export const SECRET = 'TOP-SECRET-OUTSIDE-THE-ROOT';
export const BIG_SIZE = 300 * 1024 + 17;
export const HUGE_SIZE = 64 * 1024 * 1024;

/** Deterministic bytes, so a corrupted stream shows. */
export function bigBytes(): Uint8Array {
  const out = new Uint8Array(BIG_SIZE);
  let x = 12345;
  for (let i = 0; i < out.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

export interface StaticRoot {
  dir: string;
  root: string;
  cleanup(): void;
}

/** A copy of the fixture; `links` adds symlinks, a FIFO and a 64 MiB file (left out for Workers, whose assets have none). */
export function prepareRoot(links = true): StaticRoot {
  const dir = mkdtempSync(join(tmpdir(), 'rove-static-'));
  const root = join(dir, 'public');
  cpSync(FIXTURE, root, { recursive: true });
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  writeFileSync(join(dir, 'package.json'), `{"secret":"${SECRET}"}`);
  writeFileSync(join(root, 'big.bin'), bigBytes());
  const css = Buffer.from(cssText());
  writeFileSync(join(root, 'app.css.gz'), gzipSync(css));
  writeFileSync(join(root, 'app.css.br'), brotliCompressSync(css));
  mkdirSync(join(root, 'empty'));
  if (links) {
    // Sparse: larger than any socket buffer, cheap to make (and over the 25 MiB Workers asset limit, so not there).
    writeFileSync(join(root, 'huge.bin'), '');
    truncateSync(join(root, 'huge.bin'), HUGE_SIZE);
    symlinkSync(join(dir, 'secret.txt'), join(root, 'escape.txt'));
    symlinkSync('../secret.txt', join(root, 'escape-rel.txt'));
    symlinkSync(dir, join(root, 'escape-dir'));
    symlinkSync('app.css', join(root, 'inner-link.css'));
    execFileSync('mkfifo', [join(root, 'fifo.css')]); // opening it must not wait for a writer
  }
  return { dir, root, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function cssText(): string {
  return readFileSync(join(FIXTURE, 'app.css'), 'utf8');
}

export interface Server {
  url: string;
  port: number;
  /** The server process (not for workerd, which Miniflare runs). */
  pid?: number;
  stop(): Promise<void>;
}

/** The static app on `runtime`, serving `root`. */
export async function startStatic(runtime: Runtime, root: string): Promise<Server> {
  if (runtime !== 'workerd') {
    const running = await start(runtime, 'test/middleware/static/app', '/', { STATIC_ROOT: root });
    return { url: running.url, port: Number(new URL(running.url).port), pid: running.child.pid, stop: running.stop };
  }
  const scratch = mkdtempSync(join(tmpdir(), 'rove-static-worker-'));
  const script = join(scratch, 'worker.js');
  bundleWorker(join(ROOT, 'test/middleware/static/app/worker.ts'), script);
  const port = await freePort();
  const mf = new Miniflare({
    modules: true,
    scriptPath: script,
    modulesRoot: scratch,
    compatibilityDate: '2025-01-01',
    compatibilityFlags: ['nodejs_compat'],
    assets: { directory: root, binding: 'ASSETS', routerConfig: { has_user_worker: true } },
    host: '127.0.0.1',
    port,
  });
  const url = (await mf.ready).origin;
  return {
    url,
    port: Number(new URL(url).port),
    async stop() {
      await mf.dispose();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with node:http: the path goes out as written, and nothing is decoded for us. */
export function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout on ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

/** How many of a process's open file descriptors point at a file whose path ends with `suffix`. */
export function openFds(pid: number, suffix: string): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).endsWith(suffix)) n++;
    } catch {
      // closed while we looked
    }
  }
  return n;
}

/** Start downloading `path` and hang up after the first chunk. */
export function abortAfterFirstChunk(base: string, path: string): Promise<void> {
  const u = new URL(base);
  return new Promise((resolve) => {
    const req = request({ host: u.hostname, port: u.port, path, agent: false }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
      res.on('error', () => resolve());
    });
    req.on('error', () => resolve());
    req.end();
  });
}
