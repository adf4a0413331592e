// A multipart/form-data body read as it arrives: multipasta splits it, and this file adds the
// backpressure (a request chunk is read only when the handler asks for the next part, or for
// more of a file) and the limits. At most one request chunk is held at a time.
import { decodeField, type MultipartError, make, type PartInfo } from 'multipasta';
import { BodyError, HttpError } from '../core/errors.ts';
import { malformed, overLimit, PARSER_HEADER_BOUND, resolveLimits, type UploadLimits } from './limits.ts';

/** A field: a small value, decoded as text (its charset, else UTF-8). */
export interface FieldPart {
  readonly kind: 'field';
  readonly name: string;
  readonly value: string;
  readonly contentType: string;
  /** The part's own headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A file: its body streams from the request as it is read. */
export interface FilePart {
  readonly kind: 'file';
  readonly name: string;
  /**
   * The name the client gave, as sent (never a path: one with `/`, `\`, `..` or a control
   * character is refused). Still the client's text: do not trust it as a file name on disk.
   */
  readonly filename: string;
  /** The type the client declared: check the bytes if it matters. */
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The bytes, as they arrive. Over `maxFileSize` it errors with the 413, never truncated. */
  readonly body: ReadableStream<Uint8Array>;
}

export type Part = FieldPart | FilePart;

/** What parts() reads of a context: any route's, a declared route's included. */
export interface UploadContext {
  readonly req: { header(name: string): string | undefined; readonly raw: Request };
}

const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/**
 * The parts of a `multipart/form-data` request, in order, as they arrive. A file's `body` is read
 * from the request while the handler reads it; a part the handler skips is dropped unread. Limits
 * bound memory and size (see `UploadLimits`); going over one throws a 413 naming it, from the
 * iterator or from the file's stream. A body that is not well-formed throws 400; another type 415.
 *
 * @example
 * import { parts } from 'rove/uploads';
 * app.post('/upload', async (c) => {
 *   for await (const part of parts(c, { maxFileSize: 1 << 30 })) {
 *     if (part.kind === 'file') await saveStream(part.body); // to disk, R2, S3…
 *     else console.log(part.name, part.value);
 *   }
 *   return c.text('stored', 201);
 * });
 */
export function parts(c: UploadContext, limits?: UploadLimits): AsyncGenerator<Part, void, undefined> {
  const bounds = resolveLimits(limits);
  const type = c.req.header('content-type') ?? '';
  const boundary = checkType(type);
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > bounds.maxTotalSize) throw overLimit('maxTotalSize', bounds.maxTotalSize);
  const body = c.req.raw.body;
  if (body === null) throw malformed('The multipart body is empty');
  return read(body, type, boundary, bounds);
}

/** 415 for another type, 400 for a boundary that is missing, repeated or not RFC 2046's. */
function checkType(type: string): string {
  const [media, ...params] = type.split(';');
  if (media!.trim().toLowerCase() !== 'multipart/form-data') {
    throw new BodyError('unsupported-type', 415, 'The body must be multipart/form-data', { headers: { connection: 'close' } });
  }
  const boundaries = params.map((p) => p.trim()).filter((p) => /^boundary\s*=/i.test(p));
  if (boundaries.length !== 1) throw malformed(boundaries.length === 0 ? 'The multipart body has no boundary' : 'The multipart body names its boundary twice');
  let value = boundaries[0]!.slice(boundaries[0]!.indexOf('=') + 1).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (!BOUNDARY.test(value)) throw malformed('The multipart boundary is not 1 to 70 allowed characters');
  return value;
}

/**
 * Feeds the parser so that no write ends one byte after a boundary. multipasta 0.2.8 skips the
 * CRLF after a boundary by position, and reads the lone LF of such a cut as a bad header name:
 * real uploads, cut anywhere by the network, would fail at random. That one byte waits for the
 * next chunk instead.
 */
class BoundaryCuts {
  readonly #delimiter: Uint8Array;
  /** The last bytes written, starting as the CRLF the first boundary goes without. */
  #tail: Uint8Array = new Uint8Array([13, 10]);
  #carry: Uint8Array | undefined;

  constructor(
    boundary: string,
    readonly write: (chunk: Uint8Array) => void,
  ) {
    this.#delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  }

  feed(chunk: Uint8Array): void {
    const buf = this.#carry === undefined ? chunk : joined(this.#carry, chunk);
    this.#carry = undefined;
    let end = buf.byteLength;
    if (this.#delimiterEndsAt(buf, end - 1)) {
      end -= 1;
      this.#carry = buf.subarray(end);
    }
    if (end === 0) return;
    const written = buf.subarray(0, end);
    this.write(written);
    const keep = this.#delimiter.byteLength;
    this.#tail = written.byteLength >= keep ? written.subarray(written.byteLength - keep) : joined(this.#tail, written).slice(-keep);
  }

  /** What was held back, at the end of the body. */
  flush(): void {
    if (this.#carry !== undefined) this.write(this.#carry);
    this.#carry = undefined;
  }

  /** Whether the delimiter ends just before `at` in what was written, then `buf`. */
  #delimiterEndsAt(buf: Uint8Array, at: number): boolean {
    const d = this.#delimiter;
    const tail = this.#tail;
    for (let k = 0; k < d.byteLength; k++) {
      const pos = tail.byteLength + at - d.byteLength + k;
      if (pos < 0) return false;
      const byte = pos < tail.byteLength ? tail[pos] : buf[pos - tail.byteLength];
      if (byte !== d[k]) return false;
    }
    return true;
  }
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/** Why multipasta stopped, as the answer to give. */
function refusal(error: MultipartError, bounds: Required<UploadLimits>): HttpError {
  switch (error._tag) {
    case 'ReachedLimit': {
      const limit = ({ MaxParts: 'maxParts', MaxTotalSize: 'maxTotalSize', MaxPartSize: 'maxFileSize', MaxFieldSize: 'maxFieldSize' } as const)[error.limit];
      return overLimit(limit, bounds[limit]);
    }
    case 'BadHeaders':
      return error.error.reason === 'HeaderTooLarge' || error.error.reason === 'TooManyHeaders'
        ? overLimit('maxHeaderSize', bounds.maxHeaderSize)
        : malformed('A part has malformed headers');
    case 'InvalidDisposition':
      return malformed('A part has no name in its Content-Disposition');
    case 'InvalidBoundary':
      return malformed('The multipart body has no boundary');
    case 'EndNotReached':
      return malformed('The multipart body ended before its closing boundary');
  }
}

/** A file part's stream: fed by the parser, pulling the request when its reader wants more. */
class FileSink {
  readonly stream: ReadableStream<Uint8Array>;
  #chunks: Uint8Array[] = [];
  ended = false;
  #dropping = false;
  #size = 0;

  constructor(
    more: () => Promise<boolean>,
    failed: () => HttpError | undefined,
    readonly tooLarge: (size: number) => boolean,
  ) {
    this.stream = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          while (this.#chunks.length === 0 && !this.ended && failed() === undefined) if (!(await more())) break;
          const error = failed();
          if (this.#chunks.length > 0) controller.enqueue(this.#chunks.shift()!);
          else if (error !== undefined) controller.error(error);
          else if (this.ended) controller.close();
          else controller.error(malformed('The multipart body ended before its closing boundary'));
        },
        cancel: () => this.drop(),
      },
      { highWaterMark: 0 },
    );
  }

  /** The handler moved on, or cancelled: the rest of this part is read and dropped. */
  drop(): void {
    this.#dropping = true;
    this.#chunks = [];
  }

  write(chunk: Uint8Array | null): void {
    if (chunk === null) this.ended = true;
    else if (this.tooLarge((this.#size += chunk.byteLength))) this.drop();
    else if (!this.#dropping) this.#chunks.push(chunk);
  }
}

async function* read(body: ReadableStream<Uint8Array>, type: string, boundary: string, bounds: Required<UploadLimits>): AsyncGenerator<Part, void, undefined> {
  const reader = body.getReader();
  const queue: Part[] = [];
  const sinks = new WeakMap<Part, FileSink>();
  let failure: HttpError | undefined;
  let finished = false;
  let exhausted = false;
  let received = 0;
  let files = 0;
  /** The file last given to the handler, dropped when the handler moves on. */
  let current: FileSink | undefined;
  const fail = (error: HttpError) => {
    failure ??= error;
  };
  const failed = () => failure;

  const parser = make({
    headers: { 'content-type': type },
    maxParts: bounds.maxParts,
    // The parser counts a part's headers in its size: the file's own bytes are counted below.
    maxPartSize: Math.max(bounds.maxFileSize, bounds.maxFieldSize) + PARSER_HEADER_BOUND,
    maxFieldSize: bounds.maxFieldSize,
    isFile: (info) => info.filename !== undefined,
    onField(info, value) {
      if (failure !== undefined || !headersFit(info)) return;
      queue.push({ kind: 'field', name: info.name, value: decodeField(info, value), contentType: info.contentType, headers: ownHeaders(info) });
    },
    onFile(info) {
      const sink = new FileSink(more, failed, (size) => {
        if (size <= bounds.maxFileSize) return false;
        fail(overLimit('maxFileSize', bounds.maxFileSize));
        return true;
      });
      if (failure !== undefined || !headersFit(info)) return () => {};
      if (++files > bounds.maxFiles) fail(overLimit('maxFiles', bounds.maxFiles));
      else if (!safeFilename(info.filename!)) fail(malformed('A file name is a path, or holds a control character'));
      else {
        const part: FilePart = {
          kind: 'file',
          name: info.name,
          filename: info.filename!,
          contentType: info.contentType,
          headers: ownHeaders(info),
          body: sink.stream,
        };
        sinks.set(part, sink);
        queue.push(part);
      }
      return (chunk) => sink.write(chunk);
    },
    onError: (error) => fail(refusal(error, bounds)),
    onDone() {
      finished = true;
    },
  });

  const cuts = new BoundaryCuts(boundary, (chunk) => parser.write(chunk));

  function headersFit(info: PartInfo): boolean {
    let size = 0;
    for (const [name, value] of Object.entries(info.headers)) size += name.length + String(value).length + 4;
    if (size <= bounds.maxHeaderSize) return true;
    fail(overLimit('maxHeaderSize', bounds.maxHeaderSize));
    return false;
  }

  // One read at a time, whoever asks (the iterator, or a file's stream).
  let reading: Promise<boolean> | undefined;
  function more(): Promise<boolean> {
    reading ??= readOne().finally(() => {
      reading = undefined;
    });
    return reading;
  }
  /** Feed the parser one request chunk; false once nothing more will come. */
  async function readOne(): Promise<boolean> {
    if (failure !== undefined || finished || exhausted) return false;
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (error) {
      fail(new HttpError(400, 'The request body ended early', { cause: error }));
      return false;
    }
    if (step.done) {
      exhausted = true;
      try {
        cuts.flush();
      } catch {
        fail(malformed('A part header could not be decoded'));
      }
      parser.end();
      if (!finished) fail(malformed('The multipart body ended before its closing boundary'));
      return false;
    }
    received += step.value.byteLength;
    if (received > bounds.maxTotalSize) {
      fail(overLimit('maxTotalSize', bounds.maxTotalSize));
      return false;
    }
    try {
      cuts.feed(step.value);
    } catch {
      fail(malformed('A part header could not be decoded')); // a bad %-escape in filename*, an unknown charset
    }
    return true;
  }

  try {
    for (;;) {
      if (current !== undefined && !current.ended) {
        current.drop();
        while (!current.ended && (await more()));
      }
      while (queue.length === 0 && (await more()));
      const next = queue.shift();
      if (next !== undefined) {
        current = sinks.get(next);
        yield next;
      } else if (failure !== undefined) throw failure;
      else return;
    }
  } finally {
    // The rest stays unread: the server drops it before the answer goes, so the client gets it.
    current?.drop();
    try {
      reader.releaseLock();
    } catch {
      // a read still pending (a file stream the handler left mid-read)
    }
  }
}

/** The part's headers as own properties of a fresh object (a header named __proto__ stays a key). */
function ownHeaders(info: PartInfo): Readonly<Record<string, string>> {
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(info.headers)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** A name, not a path: no separator, no `..`, no control character, at most 255 characters. */
function safeFilename(name: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  return name.length <= 255 && name !== '..' && name !== '.' && !/[/\\\u0000-\u001f\u007f]/.test(name);
}
