// A minimal Redis client for the tests and the bench (RESP2 over node:net, which Node, Deno and Bun all have):
// the `sendCommand(args)` of the RedisLike interface the stores take, pipelined, nothing more.
// The stores themselves are used with node-redis or ioredis in apps; this keeps the tests free of a dependency.
import { Buffer } from 'node:buffer';
import { connect, type Socket } from 'node:net';

type Reply = string | number | null | Reply[] | Error;

export class RespClient {
  readonly #socket: Socket;
  readonly #waiting: { resolve: (value: unknown) => void; reject: (error: Error) => void }[] = [];
  #buffer: Buffer = Buffer.alloc(0);
  #closed: Error | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      for (;;) {
        const parsed = parse(this.#buffer, 0);
        if (parsed === undefined) break;
        this.#buffer = this.#buffer.subarray(parsed.end);
        const waiter = this.#waiting.shift();
        if (parsed.value instanceof Error) waiter?.reject(parsed.value);
        else waiter?.resolve(parsed.value);
      }
    });
    const fail = (error?: Error) => {
      this.#closed ??= error ?? new Error('Redis connection closed');
      for (const waiter of this.#waiting.splice(0)) waiter.reject(this.#closed);
    };
    socket.on('error', fail);
    socket.on('close', () => fail());
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RespClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        // Commands are small writes that wait for their replies: without this, Nagle holds them back.
        socket.setNoDelay(true);
        resolve(new RespClient(socket));
      });
    });
  }

  sendCommand(args: string[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#closed);
    let out = `*${args.length}\r\n`;
    for (const arg of args) out += `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`;
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#socket.write(out);
    });
  }

  close(): void {
    this.#socket.destroy();
  }
}

/** One reply from `buf` at `at`, or undefined when it has not all arrived yet. */
function parse(buf: Buffer, at: number): { value: Reply; end: number } | undefined {
  const eol = buf.indexOf('\r\n', at);
  if (eol < 0) return undefined;
  const line = buf.toString('utf8', at + 1, eol);
  const next = eol + 2;
  switch (String.fromCharCode(buf[at])) {
    case '+':
      return { value: line, end: next };
    case '-':
      return { value: new Error(line), end: next };
    case ':':
      return { value: Number(line), end: next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { value: null, end: next };
      if (buf.length < next + length + 2) return undefined;
      return { value: buf.toString('utf8', next, next + length), end: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, end: next };
      const items: Reply[] = [];
      let end = next;
      for (let i = 0; i < count; i++) {
        const item = parse(buf, end);
        if (item === undefined) return undefined;
        items.push(item.value);
        end = item.end;
      }
      return { value: items, end };
    }
    default:
      throw new Error(`RESP: unexpected reply type ${JSON.stringify(String.fromCharCode(buf[at]))}`);
  }
}

/** One client for the process when `url` (REDIS_URL, `redis://host:port`) is set: what the bench's Redis targets share. */
export async function connectFromUrl(url: string | undefined): Promise<RespClient | undefined> {
  if (!url) return undefined;
  const u = new URL(url);
  return RespClient.connect(Number(u.port || 6379), u.hostname || '127.0.0.1');
}
