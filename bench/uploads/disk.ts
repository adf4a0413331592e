// The bench's upload destination, the same for Rove and Hono: a stream written to a file a
// megabyte at a time (node:fs/promises, which Node, Deno and Bun all have).
import { open } from 'node:fs/promises';
import { join } from 'node:path';

const BATCH = 1024 * 1024;

/** Write `body` to a new file in `dir`; its size. */
export async function writeStream(dir: string, body: ReadableStream<Uint8Array>): Promise<number> {
  const file = await open(join(dir, crypto.randomUUID()), 'wx');
  let batch = new Uint8Array(BATCH);
  let filled = 0;
  let size = 0;
  // One write in flight while the next batch fills: the body is read at the network's pace.
  let writing: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    await writing;
    const full = batch.subarray(0, filled);
    writing = file.write(full);
    writing.catch(() => {}); // awaited before the next write, or at the end
    batch = new Uint8Array(BATCH);
    filled = 0;
  };
  try {
    const reader = body.getReader();
    for (let step = await reader.read(); !step.done; step = await reader.read()) {
      const chunk = step.value;
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
    await file.close();
  }
  return size;
}

/** The runtime this process is. */
export function runtimeName(): 'node' | 'deno' | 'bun' {
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  return g.Bun ? 'bun' : g.Deno ? 'deno' : 'node';
}
