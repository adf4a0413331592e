import { BodyError, HttpError } from '../core/errors.ts';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Read a request body into memory, stopping at `limit` bytes. The rest is left unread for the
 * server: it drops it before the 413 goes out, so that the answer reaches the client (see
 * docs/requests.md); cancelling here would make some runtimes reset the connection instead.
 */
export async function readBody(body: ReadableStream<Uint8Array> | null, contentLength: string | null, limit: number): Promise<Uint8Array> {
  if (contentLength !== null) {
    const declared = Number(contentLength);
    if (declared > limit) throw tooLarge(limit);
  }
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (error) {
        // The connection was lost mid-body: the client's doing, not an error of the app.
        throw error instanceof HttpError ? error : new HttpError(400, 'The request body ended early', { cause: error });
      }
      const { done, value } = step;
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw tooLarge(limit);
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

export function tooLarge(limit: number): HttpError {
  return new BodyError('too-large', 413, `Request body is larger than ${limit} bytes`, { headers: { connection: 'close' } });
}
