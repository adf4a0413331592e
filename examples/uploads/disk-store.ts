// Files on disk, for Node, Deno and Bun: written as they arrive, a megabyte at a time (the write's
// own wait is the backpressure), hashed on the way, and removed when the stream fails midway.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStore } from './app.ts';

const BATCH = 1024 * 1024;

/**
 * Write `body` to `file`, gathered into writes of up to 1 MiB with one write in flight while the
 * next batch fills (a write per network chunk of 16–64 KiB, each awaited before the next read, is
 * slow); `onChunk` sees each chunk on the way. Resolves with the size; a body that errors rejects.
 *
 * @example
 * const size = await writeBatched(await open(path, 'wx'), body, (chunk) => hash.update(chunk));
 */
export async function writeBatched(file: FileHandle, body: ReadableStream<Uint8Array>, onChunk?: (chunk: Uint8Array) => void): Promise<number> {
  let batch = new Uint8Array(BATCH);
  let filled = 0;
  let size = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    await writing;
    writing = file.write(batch, 0, filled);
    writing.catch(() => {}); // awaited before the next write, or at the end
    batch = new Uint8Array(BATCH);
    filled = 0;
  };
  try {
    const reader = body.getReader();
    for (let step = await reader.read(); !step.done; step = await reader.read()) {
      const chunk = step.value;
      onChunk?.(chunk);
      size += chunk.byteLength;
      if (filled + chunk.byteLength > BATCH) await flush();
      if (chunk.byteLength >= BATCH) {
        await writing;
        writing = file.write(chunk);
        writing.catch(() => {});
      } else {
        batch.set(chunk, filled);
        filled += chunk.byteLength;
      }
    }
    if (filled > 0) await flush();
    await writing;
  } finally {
    await writing.catch(() => {});
  }
  return size;
}

/**
 * @example
 * const store = diskStore(process.env.UPLOAD_DIR ?? './uploads');
 */
export function diskStore(dir: string): FileStore {
  mkdirSync(dir, { recursive: true });
  return {
    async put(key, body) {
      // The key is the app's own (a UUID and a short extension), never the client's name.
      const path = join(dir, key);
      const file = await open(path, 'wx');
      const hash = createHash('sha256');
      let size: number;
      try {
        size = await writeBatched(file, body, (chunk) => hash.update(chunk));
      } catch (error) {
        await file.close();
        await unlink(path).catch(() => {});
        throw error; // the upload's own refusal (a 413), or the client gone
      }
      await file.close();
      return { size, sha256: hash.digest('hex') };
    },
  };
}
