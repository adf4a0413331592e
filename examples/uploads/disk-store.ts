// Files on disk, for Node, Deno and Bun: each chunk written as it arrives (the write's own wait is
// the backpressure), hashed on the way, and the file removed when the stream fails midway.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStore } from './app.ts';

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
      let size = 0;
      try {
        const reader = body.getReader();
        for (let step = await reader.read(); !step.done; step = await reader.read()) {
          const chunk = step.value;
          hash.update(chunk);
          size += chunk.byteLength;
          await file.write(chunk);
        }
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
