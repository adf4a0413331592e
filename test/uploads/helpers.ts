// Multipart bodies for the upload tests: written by hand (to send what no browser would) or by
// the runtime's own FormData encoder, and delivered in chunks of any size.

export const BOUNDARY = 'rove-test-boundary';
const enc = new TextEncoder();

export interface RawPart {
  name: string;
  filename?: string;
  type?: string;
  /** Extra header lines, written as given. */
  headers?: string[];
  body: string | Uint8Array;
}

/** A multipart body with `parts`; `close: false` leaves out the closing boundary. */
export function multipart(parts: RawPart[], o: { boundary?: string; close?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const b = o.boundary ?? BOUNDARY;
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    const lines = [`--${b}`, `Content-Disposition: ${disposition}`, ...(p.type ? [`Content-Type: ${p.type}`] : []), ...(p.headers ?? []), '', ''];
    chunks.push(enc.encode(lines.join('\r\n')), typeof p.body === 'string' ? enc.encode(p.body) : p.body, enc.encode('\r\n'));
  }
  if (o.close !== false) chunks.push(enc.encode(`--${b}--\r\n`));
  return concat(chunks);
}

export function concat(chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** `bytes` as a stream of chunks of the given sizes (cycled), as a network might cut it. */
export function chunked(bytes: Uint8Array, sizes: number[] = [65536]): ReadableStream<Uint8Array> {
  let at = 0;
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      const n = Math.max(1, sizes[i++ % sizes.length]!);
      controller.enqueue(bytes.slice(at, at + n));
      at += n;
    },
  });
}

export const formType = (boundary = BOUNDARY) => `multipart/form-data; boundary=${boundary}`;

/** Deterministic bytes: a file's content that tests can check without holding a copy. */
export function pattern(size: number, seed = 7): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x >>> 16;
  }
  return out;
}
