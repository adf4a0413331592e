// A request body the app answered before reading: read and drop the rest before the answer goes.
//
// A server that answers and closes while the client is still sending makes the client's TCP stack
// receive a reset, and a reset throws away the answer the client had not read yet: the client sees
// "connection reset", not the 413. Reading what is left first lets the answer arrive. Deno's server
// does this itself; Node, Bun and workerd do not. Both bounds keep a client that sends gigabytes,
// or sends slowly, from holding the request: past either, the server answers and closes anyway,
// and such a client may see the reset. Memory stays at one chunk, whatever the size.

/** At most this much of an unread body is read and dropped: the oversized photo or document a form is usually given. */
export const DISCARD_BYTES = 16 * 1024 * 1024;
/** And for at most this long: 16 MiB at about 13 Mbit/s. */
export const DISCARD_MS = 10_000;

/**
 * The response, once the rest of an unread request body was dropped. Only error answers wait:
 * they are the ones given before the body was read (413, 401, 404, 415); a success that ignored
 * its body is the app's choice. A body being read (a locked stream) is left alone.
 */
export function afterUnreadBody(request: Request, res: Response): Response | Promise<Response> {
  if (res.status < 400) return res;
  const body = request.body;
  if (body === null || body.locked) return res;
  return discardBody(body, request.headers.get('content-length')).then(() => res);
}

/**
 * Read and drop a body within DISCARD_BYTES and DISCARD_MS; one declared past DISCARD_BYTES is
 * cancelled unread. True when the body was read to its end: the connection can carry another request.
 */
export async function discardBody(body: ReadableStream<Uint8Array>, declared: string | null): Promise<boolean> {
  if (declared !== null && Number(declared) > DISCARD_BYTES) {
    await body.cancel().catch(() => {});
    return false;
  }
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), DISCARD_MS);
  });
  let left = DISCARD_BYTES;
  try {
    while (left > 0) {
      const step = await Promise.race([reader.read(), late]);
      if (step === undefined) return false;
      if (step.done) return true;
      left -= step.value.byteLength;
    }
    return false;
  } catch {
    return false; // the client went away: nothing is left to drop
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}
