// Files in R2, for Workers. R2's put() wants a body of known length, and a part's length is known
// only at its end: a multipart upload sends it in 5 MiB pieces instead, so at most one piece is
// held in memory, and an upload that fails midway is aborted.
import type { FileStore } from './app.ts';

/** The part of an R2 bucket binding the store uses. */
export interface R2BucketLike {
  createMultipartUpload(key: string, options?: { httpMetadata?: { contentType?: string } }): Promise<R2UploadLike>;
}
interface R2UploadLike {
  uploadPart(partNumber: number, value: Uint8Array): Promise<{ partNumber: number; etag: string }>;
  complete(parts: { partNumber: number; etag: string }[]): Promise<{ size: number }>;
  abort(): Promise<void>;
}

/** R2's smallest part, except the last. */
const PIECE = 5 * 1024 * 1024;

/**
 * @example
 * export default toWorker(createUploadsApp({ store: (env) => r2Store(env.FILES as R2BucketLike) }));
 */
export function r2Store(bucket: R2BucketLike): FileStore {
  return {
    async put(key, body, type) {
      const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType: type } });
      const done: { partNumber: number; etag: string }[] = [];
      let piece = new Uint8Array(PIECE);
      let filled = 0;
      const send = async () => {
        done.push(await upload.uploadPart(done.length + 1, piece.subarray(0, filled)));
        piece = new Uint8Array(PIECE);
        filled = 0;
      };
      try {
        const reader = body.getReader();
        for (let step = await reader.read(); !step.done; step = await reader.read()) {
          const chunk = step.value;
          for (let at = 0; at < chunk.byteLength; ) {
            const take = Math.min(PIECE - filled, chunk.byteLength - at);
            piece.set(chunk.subarray(at, at + take), filled);
            filled += take;
            at += take;
            if (filled === PIECE) await send();
          }
        }
        if (filled > 0 || done.length === 0) await send();
        const object = await upload.complete(done);
        return { size: object.size };
      } catch (error) {
        await upload.abort().catch(() => {});
        throw error;
      }
    },
  };
}
