// node:fs helpers of rove/static, shared by the Node and Bun adapters.
import { constants, realpathSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { resolve, sep } from 'node:path';

/** Files up to this size are read with one read() (one stream chunk's worth); larger ones stream. */
export const SMALL_FILE = 64 * 1024;
const CHUNK = 64 * 1024;
// O_NOFOLLOW: the last name must not have turned into a symlink since realpath; O_NONBLOCK: a FIFO must not hang open().
export const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The real path of a root directory, failing early and clearly when it is missing. */
export function realRoot(root: string): string {
  try {
    return realpathSync(resolve(root));
  } catch (err) {
    throw new Error(`serveStatic: root ${JSON.stringify(root)} cannot be read (${(err as Error).message})`);
  }
}

/** Whether `real` is `root` itself or inside it. */
export function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

export async function fileBody(fh: FileHandle, start: number, end: number): Promise<BodyInit> {
  const length = end - start + 1;
  if (length <= SMALL_FILE) {
    try {
      const buf = new Uint8Array(length);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await fh.read(buf, got, length - got, start + got);
        if (bytesRead === 0) break; // truncated since fstat: send what is there
        got += bytesRead;
      }
      return got === length ? buf : buf.subarray(0, got);
    } finally {
      await fh.close().catch(() => {});
    }
  }
  return streamFile(fh, start, length);
}

/** A pull stream over a file handle; closes it at the end, on error and on cancel. */
export function streamFile(fh: FileHandle, start: number, length: number): ReadableStream<Uint8Array> {
  let position = start;
  let left = length;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    fh.close().catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const buf = new Uint8Array(Math.min(CHUNK, left));
        const { bytesRead } = await fh.read(buf, 0, buf.length, position);
        if (bytesRead === 0) {
          close();
          controller.close();
          return;
        }
        position += bytesRead;
        left -= bytesRead;
        controller.enqueue(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead));
        if (left === 0) {
          close();
          controller.close();
        }
      } catch (err) {
        close();
        controller.error(err);
      }
    },
    cancel() {
      close();
    },
  });
}
