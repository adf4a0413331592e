// Writing a Response to node:http's ServerResponse: one writeHead + end for a light response
// or a body that is all there at once, chunked streaming for one still being produced, and the
// problem+json 500 when something fails outside the app.
import type { ServerResponse } from 'node:http';
import { internalError } from '../../src/core/problem.ts';
import { type HeaderRecord, headerObject, NodeResponse } from './response.ts';

/** One writeHead + end for a light response; the general path for any other Response. */
export function write(result: Response, res: ServerResponse, head: boolean): void | Promise<void> {
  if (result instanceof NodeResponse) {
    if (result.writeTo(res)) return;
    result = result.toResponse();
  }
  const headers = headerObject(result.headers);
  const body = result.body;
  if (body === null) {
    // As Deno, Bun and workerd send it: a bodiless answer says its length is 0.
    if (headers['content-length'] === undefined && result.status !== 204 && result.status !== 304) headers['content-length'] = '0';
    res.writeHead(result.status, headers);
    res.end();
    return;
  }
  if (head) {
    res.writeHead(result.status, headers);
    body.cancel().catch(() => {});
    res.end();
    return;
  }
  if (headers['content-length'] !== undefined) {
    res.writeHead(result.status, headers);
    return pipeBody(body.getReader(), res);
  }
  return writeKnown(result.status, headers, body.getReader(), res);
}

const LATE = Symbol('late');
/** Most a body is held back to learn its length; a longer one is sent chunked. */
const MAX_HELD = 1024 * 1024;
/** Most chunks held back: a body made whole comes in one or a few; a producer that keeps sending is a stream. */
const MAX_HELD_CHUNKS = 16;

/**
 * A Response built from a string or bytes has its whole body at once: send it with its length, as
 * the other runtimes do. A body still being produced (a stream, server-sent events) is not all
 * there within one macrotask: its headers go out then, chunked, and the rest follows as it comes.
 */
async function writeKnown(status: number, headers: HeaderRecord, reader: ReadableStreamDefaultReader<Uint8Array>, res: ServerResponse): Promise<void> {
  const late = new Promise<typeof LATE>((resolve) => setTimeout(resolve, 0, LATE));
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const read = reader.read();
    let step: ReadableStreamReadResult<Uint8Array> | typeof LATE;
    try {
      step = await Promise.race([read, late]);
    } catch {
      res.destroy(); // the body failed before a byte went out: nothing sensible to send
      return;
    }
    if (step === LATE || (!step.done && (total + step.value.byteLength > MAX_HELD || chunks.length >= MAX_HELD_CHUNKS))) {
      res.writeHead(status, headers);
      for (const chunk of chunks) res.write(chunk);
      // The read in flight when time ran out carries the next chunk: it goes first.
      return pipeBody(reader, res, read);
    }
    if (step.done) break;
    chunks.push(step.value);
    total += step.value.byteLength;
  }
  headers['content-length'] = String(total);
  res.writeHead(status, headers);
  res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total));
}

async function pipeBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  res: ServerResponse,
  first?: Promise<ReadableStreamReadResult<Uint8Array>>,
): Promise<void> {
  let closed = false;
  const onClose = () => {
    closed = true;
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  try {
    for (let pending = first; ; pending = undefined) {
      const { done, value } = await (pending ?? reader.read());
      if (done || closed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.once('drain', go);
          res.once('close', go);
        });
      }
    }
    if (!closed) res.end();
  } catch {
    // The stream failed mid-response: the status is already sent, so cut the connection.
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

/** Something failed outside the app: the same problem+json 500 as everywhere, never a runtime page. */
export function fail(res: ServerResponse, shown: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const answer = internalError(shown);
  answer.text().then(
    (body) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(answer.status, { ...headerObject(answer.headers), 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    },
    () => res.destroy(),
  );
}
