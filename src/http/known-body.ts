// A response body that is already there (a string or bytes a helper built), read
// without waiting on a producer: what etag() hashes and compress() measures.

const LATE = Symbol('late');
/** One macrotask: a body built from a string or bytes is read well before it ends. */
const later = () => new Promise<typeof LATE>((resolve) => setTimeout(resolve, 0, LATE));

/**
 * The bytes of `res`'s body, read from a clone, when it is at most `max` bytes
 * and every chunk is available at once; undefined for a body still being
 * produced (a stream, server-sent events) or one too large. The original
 * body stays unread.
 *
 * @example
 * const bytes = await knownBody(c.res, 1024 * 1024);
 */
export async function knownBody(res: Response, max: number): Promise<Uint8Array | undefined> {
  const length = res.headers.get('content-length');
  if (length !== null && Number(length) > max) return undefined;
  if (res.body === null) return new Uint8Array(0);
  const reader = res.clone().body!.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const step = await Promise.race([reader.read(), later()]);
    if (step === LATE) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    if (step.done) break;
    total += step.value.byteLength;
    if (total > max) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(step.value);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
