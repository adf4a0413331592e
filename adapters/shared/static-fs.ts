// node:fs helpers of rove/static, shared by the Node and Bun adapters. The
// callback API: per request it costs about half of what node:fs/promises does.
import { close, constants, fstat, lstatSync, open, read, realpath, realpathSync, type Stats } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { FileVersion } from '../../src/middleware/static/file-cache.ts';

/** Files up to this size are read with one read() (one stream chunk's worth); larger ones stream. */
export const SMALL_FILE = 64 * 1024;
const CHUNK = 64 * 1024;
// O_NOFOLLOW: the last name must not have turned into a symlink since realpath; O_NONBLOCK: a FIFO must not hang open().
export const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The real path of a root directory, failing early and clearly when it is missing. */
export function realRoot(root: string): string {
  try {
    return realpathSync.native(resolve(root));
  } catch (err) {
    throw new Error(`serveStatic: root ${JSON.stringify(root)} cannot be read (${(err as Error).message})`);
  }
}

/** Whether `real` is `root` itself or inside it. */
export function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** realpath(3) of `path`, or undefined when it does not resolve. */
export function realPath(path: string): Promise<string | undefined> {
  return new Promise((done) => realpath.native(path, (err, real) => done(err ? undefined : real)));
}

/**
 * lstat(2) of `path` now, or undefined. Synchronous on purpose: the one syscall a request makes
 * against a real path already resolved (and remembered) costs about a microsecond on a local file
 * system, where the thread-pool round trip of the callback form costs several in wake-ups and
 * callbacks. The steps that may wait on a disk (realpath, open, read) stay asynchronous.
 */
export function lstatNow(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // EACCES, ENOTDIR, ELOOP: nothing to serve
  }
}

/** What identifies this version of a file, for the FileCache. */
export function versionOf(st: Stats): FileVersion {
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
}

/** An open file descriptor and its stats, or undefined. */
export function openFile(path: string): Promise<{ fd: number; stats: Stats } | undefined> {
  return new Promise((done) => {
    open(path, FLAGS, (err, fd) => {
      if (err) return done(undefined);
      fstat(fd, (err2, stats) => {
        if (err2) {
          closeFd(fd);
          return done(undefined);
        }
        done({ fd, stats });
      });
    });
  });
}

export function closeFd(fd: number): void {
  close(fd, () => {});
}

function readAt(fd: number, buf: Uint8Array, offset: number, length: number, position: number): Promise<number> {
  return new Promise((done, fail) => read(fd, buf, offset, length, position, (err, n) => (err ? fail(err) : done(n))));
}

/** Bytes `start`..`end` of an open file: read at once when small, else a stream. Closes `fd` when done. */
export async function fileBody(fd: number, start: number, end: number): Promise<BodyInit> {
  const length = end - start + 1;
  if (length > SMALL_FILE) return streamFile(fd, start, length);
  return readBytes(fd, start, length);
}

/** `length` bytes from `start` in one buffer (fewer when the file shrank since its stat). Closes `fd`. */
export async function readBytes(fd: number, start: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const buf = new Uint8Array(length);
    let got = 0;
    while (got < length) {
      const n = await readAt(fd, buf, got, length - got, start + got);
      if (n === 0) break; // truncated since fstat: send what is there
      got += n;
    }
    return got === length ? buf : buf.subarray(0, got);
  } finally {
    closeFd(fd);
  }
}

/** A pull stream over a file descriptor; closes it at the end, on error and on cancel. */
export function streamFile(fd: number, start: number, length: number): ReadableStream<Uint8Array> {
  let position = start;
  let left = length;
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    closeFd(fd);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const buf = new Uint8Array(Math.min(CHUNK, left));
        const n = await readAt(fd, buf, 0, buf.length, position);
        if (n === 0) {
          finish();
          controller.close();
          return;
        }
        position += n;
        left -= n;
        controller.enqueue(n === buf.length ? buf : buf.subarray(0, n));
        if (left === 0) {
          finish();
          controller.close();
        }
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    cancel() {
      finish();
    },
  });
}
