import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';
import { type SSEStream, sse } from '../../src/sse/index.ts';

const decoder = new TextDecoder();

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, marker: string): Promise<string> {
  let text = '';
  while (!text.includes(marker)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  return text;
}

describe('sse()', () => {
  it('answers text/event-stream with no-cache, X-Accel-Buffering and the headers set before', async () => {
    const app = new App();
    app.get('/', (c) => {
      c.header('x-trace', 'abc');
      return sse(c, (s) => s.send({ data: 'one' }));
    });
    const res = await app.fetch(new Request('http://x/'));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('x-trace')).toBe('abc');
    expect(await res.text()).toBe('data: one\n\n');
  });

  it('reads Last-Event-ID', async () => {
    const app = new App();
    app.get('/', (c) => sse(c, (s) => s.send({ data: s.lastEventId ?? 'none' })));
    expect(await (await app.fetch(new Request('http://x/', { headers: { 'last-event-id': '41' } }))).text()).toBe('data: 41\n\n');
    expect(await (await app.fetch(new Request('http://x/'))).text()).toBe('data: none\n\n');
  });

  it('sends a keep-alive comment while the line is quiet', async () => {
    const app = new App();
    app.get('/', (c) => sse(c, (s) => s.sleep(200), { keepAliveMs: 30 }));
    const text = await (await app.fetch(new Request('http://x/'))).text();
    expect(text).toMatch(/^(: keep-alive\n\n)+$/);
  });

  it('a cancelled body aborts the signal, ends sleep() and turns sends into no-ops', async () => {
    const app = new App();
    let stream: SSEStream | undefined;
    let finished = false;
    app.get('/', (c) =>
      sse(c, async (s) => {
        stream = s;
        let n = 0;
        while (!s.aborted) {
          await s.send({ data: ++n });
          await s.sleep(10_000);
        }
        finished = true;
      }),
    );
    const res = await app.fetch(new Request('http://x/'));
    const reader = res.body!.getReader();
    expect(await readUntil(reader, '\n\n')).toBe('data: 1\n\n');
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 10));
    expect(stream!.signal.aborted).toBe(true);
    expect(finished).toBe(true);
    await expect(stream!.send({ data: 'late' })).resolves.toBeUndefined();
  });

  it('send() waits while the client does not read (backpressure)', async () => {
    const app = new App();
    let sent = 0;
    app.get('/', (c) =>
      sse(
        c,
        async (s) => {
          for (let i = 0; i < 100; i++) {
            await s.send({ data: 'x'.repeat(1000) });
            sent++;
          }
        },
        { highWaterMark: 4096 },
      ),
    );
    const res = await app.fetch(new Request('http://x/'));
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toBeLessThan(10);
    const text = await res.text();
    expect(sent).toBe(100);
    expect(text.split('\n\n').length - 1).toBe(100);
  });

  it('a client that takes nothing for four keep-alive intervals while events wait is treated as gone', async () => {
    const app = new App();
    let stream: SSEStream | undefined;
    let finished = false;
    app.get('/', (c) =>
      sse(
        c,
        async (s) => {
          stream = s;
          while (!s.aborted) await s.send({ data: 'x'.repeat(100) });
          finished = true;
        },
        { keepAliveMs: 20, highWaterMark: 1000 },
      ),
    );
    await app.fetch(new Request('http://x/')); // and never read
    for (let i = 0; i < 50 && !finished; i++) await new Promise((r) => setTimeout(r, 20));
    expect(finished).toBe(true);
    expect(stream!.signal.aborted).toBe(true);
  });

  it('a callback that throws ends the stream and emits sse:error', async () => {
    const app = new App();
    const seen: unknown[] = [];
    app.on('sse:error', (e) => {
      seen.push(e.metadata.error);
    });
    app.get('/', (c) =>
      sse(c, async (s) => {
        await s.send({ data: 'before' });
        throw new Error('boom');
      }),
    );
    expect(await (await app.fetch(new Request('http://x/'))).text()).toBe('data: before\n\n');
    expect((seen[0] as Error).message).toBe('boom');
  });

  it('an event name with a line break rejects the send', async () => {
    const app = new App();
    let error: unknown;
    app.get('/', (c) =>
      sse(c, async (s) => {
        await s.send({ event: 'x\ndata: injected', data: 1 }).catch((e) => (error = e));
      }),
    );
    expect(await (await app.fetch(new Request('http://x/'))).text()).toBe('');
    expect(error).toBeInstanceOf(TypeError);
  });
});
