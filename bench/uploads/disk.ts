// The bench's upload destination, the same for every server: a stream written to a file by
// examples/uploads's writer, without its hash (node:fs/promises, which Node, Deno and Bun have).
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { writeBatched } from '../../examples/uploads/disk-store.ts';

/** Write `body` to a new file in `dir` with examples/uploads's batched writer; its size. */
export async function writeStream(dir: string, body: ReadableStream<Uint8Array>): Promise<number> {
  const file = await open(join(dir, crypto.randomUUID()), 'wx');
  try {
    return await writeBatched(file, body);
  } finally {
    await file.close();
  }
}

/** The runtime this process is. */
export function runtimeName(): 'node' | 'deno' | 'bun' {
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  return g.Bun ? 'bun' : g.Deno ? 'deno' : 'node';
}
