// parts(): fields and files in order, file bodies streamed, parts skipped, every limit a 413
// naming it, hostile bodies a clean 4xx; and any body FormData can encode, cut anywhere, reads back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';
import { type Part, parts, type UploadLimits } from '../../src/uploads/index.ts';
import { BOUNDARY, chunked, formType, multipart, pattern } from './helpers.ts';

/** An app that reads every part (files to their size and first bytes) and answers what it saw. */
function echoApp(limits?: UploadLimits, skipFiles = false) {
  const app = new App();
  app.post('/upload', async (c) => {
    const seen: unknown[] = [];
    for await (const part of parts(c, limits)) {
      if (part.kind === 'field') seen.push({ field: part.name, value: part.value });
      else if (skipFiles) seen.push({ skipped: part.name });
      else {
        const bytes = new Uint8Array(await new Response(part.body).arrayBuffer());
        seen.push({ file: part.name, filename: part.filename, type: part.contentType, size: bytes.byteLength, head: [...bytes.slice(0, 4)] });
      }
    }
    return c.json(seen);
  });
  return app;
}

const send = (app: App, body: Uint8Array | ReadableStream<Uint8Array>, type = formType(), headers: Record<string, string> = {}) =>
  app.request('/upload', {
    method: 'POST',
    body,
    headers: { 'content-type': type, ...headers },
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

describe('parts()', () => {
  it('gives fields and files in order, each file streamed', async () => {
    const file = pattern(200_000);
    const body = multipart([
      { name: 'title', body: 'holiday' },
      { name: 'photo', filename: 'a.png', type: 'image/png', body: file },
      { name: 'note', body: 'été' },
    ]);
    const res = await send(echoApp(), chunked(body, [1, 7, 4096, 13]));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { field: 'title', value: 'holiday' },
      { file: 'photo', filename: 'a.png', type: 'image/png', size: 200_000, head: [...file.slice(0, 4)] },
      { field: 'note', value: 'été' },
    ]);
  });

  it('drops a file the handler does not read, and goes on to the next part', async () => {
    const body = multipart([
      { name: 'a', filename: 'big.bin', body: pattern(300_000) },
      { name: 'after', body: 'still here' },
    ]);
    const res = await send(echoApp(undefined, true), chunked(body));
    expect(await res.json()).toEqual([{ skipped: 'a' }, { field: 'after', value: 'still here' }]);
  });

  it('a part without a filename is a field, whatever its type', async () => {
    const res = await send(echoApp(), multipart([{ name: 'blob', type: 'application/octet-stream', body: 'x' }]));
    expect(await res.json()).toEqual([{ field: 'blob', value: 'x' }]);
  });

  it('keeps a part header named __proto__ as a plain key', async () => {
    const app = new App();
    app.post('/upload', async (c) => {
      const out: Part[] = [];
      for await (const p of parts(c)) out.push(p);
      return c.json({
        proto: Object.getOwnPropertyDescriptor(out[0]!.headers, '__proto__')?.value,
        polluted: ({} as Record<string, unknown>).polluted ?? null,
      });
    });
    const res = await send(app, multipart([{ name: 'f', headers: ['__proto__: {"polluted":1}'], body: 'v' }]));
    expect(await res.json()).toEqual({ proto: '{"polluted":1}', polluted: null });
  });
});

describe('limits: a 413 problem+json naming the limit, never a truncated part', () => {
  const cases: [string, UploadLimits, Uint8Array, string][] = [
    ['maxFileSize', { maxFileSize: 1000 }, multipart([{ name: 'f', filename: 'f.bin', body: pattern(5000) }]), 'maxFileSize'],
    ['maxTotalSize', { maxTotalSize: 10_000 }, multipart([{ name: 'f', filename: 'f.bin', body: pattern(50_000) }]), 'maxTotalSize'],
    ['maxParts', { maxParts: 3 }, multipart(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, body: 'x' }))), 'maxParts'],
    [
      'maxFiles',
      { maxFiles: 1 },
      multipart([
        { name: 'a', filename: 'a', body: 'x' },
        { name: 'b', filename: 'b', body: 'y' },
      ]),
      'maxFiles',
    ],
    ['maxFieldSize', { maxFieldSize: 10 }, multipart([{ name: 'f', body: 'x'.repeat(100) }]), 'maxFieldSize'],
    ['maxHeaderSize', { maxHeaderSize: 100 }, multipart([{ name: 'f', headers: [`X-Long: ${'a'.repeat(200)}`], body: 'x' }]), 'maxHeaderSize'],
  ];
  it.each(cases)('%s', async (_, limits, body, limit) => {
    const res = await send(echoApp(limits), chunked(body, [512]));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await res.json()) as { limit: string; max: number; detail: string };
    expect(problem.limit).toBe(limit);
    expect(problem.max).toBe((limits as Record<string, number>)[limit]);
    expect(problem.detail).toMatch(/larger than|more than/);
  });

  it('refuses a declared Content-Length over maxTotalSize before reading', async () => {
    const body = multipart([{ name: 'f', body: 'x' }]);
    const res = await send(echoApp({ maxTotalSize: 10 }), body, formType(), { 'content-length': String(body.byteLength) });
    expect(res.status).toBe(413);
  });

  it('refuses a limit that is not a positive integer, and maxHeaderSize past the parser bound', () => {
    const c = { req: { header: () => formType(), raw: { body: null } } } as never;
    expect(() => parts(c, { maxFiles: 0 })).toThrow('positive integer');
    expect(() => parts(c, { maxFileSize: 1.5 })).toThrow('positive integer');
    expect(() => parts(c, { maxHeaderSize: 20_000 })).toThrow('at most 16384');
  });
});

describe('hostile bodies: a clean 4xx, and the app keeps serving', () => {
  const enc = new TextEncoder();
  const raw = (text: string) => enc.encode(text.replaceAll('\n', '\r\n'));
  const cases: [string, Uint8Array, string, number][] = [
    ['a filename with ../', multipart([{ name: 'f', filename: '../../etc/passwd', body: 'x' }]), formType(), 400],
    ['a filename with a backslash path', multipart([{ name: 'f', filename: 'C:\\x\\y.txt', body: 'x' }]), formType(), 400],
    [
      'a filename holding NUL (filename*)',
      raw(`--${BOUNDARY}\nContent-Disposition: form-data; name="f"; filename*=UTF-8''a%00b\n\nx\n--${BOUNDARY}--\n`),
      formType(),
      400,
    ],
    [
      'a filename holding CR/LF (filename*)',
      raw(`--${BOUNDARY}\nContent-Disposition: form-data; name="f"; filename*=UTF-8''a%0D%0Ab\n\nx\n--${BOUNDARY}--\n`),
      formType(),
      400,
    ],
    [
      'a bad %-escape in filename*',
      raw(`--${BOUNDARY}\nContent-Disposition: form-data; name="f"; filename*=UTF-8''%E0%A4%A\n\nx\n--${BOUNDARY}--\n`),
      formType(),
      400,
    ],
    ['no boundary', multipart([{ name: 'f', body: 'x' }]), 'multipart/form-data', 400],
    ['two boundaries', multipart([{ name: 'f', body: 'x' }]), `${formType()}; boundary=other`, 400],
    ['a boundary of 71 characters', multipart([{ name: 'f', body: 'x' }], { boundary: 'b'.repeat(71) }), formType('b'.repeat(71)), 400],
    ['a boundary that never closes', multipart([{ name: 'f', filename: 'f', body: 'x' }], { close: false }), formType(), 400],
    ['a body that stops mid-part', multipart([{ name: 'f', filename: 'f', body: pattern(5000) }]).slice(0, 3000), formType(), 400],
    ['a part without a name', raw(`--${BOUNDARY}\nContent-Disposition: form-data\n\nx\n--${BOUNDARY}--\n`), formType(), 400],
    ['10,000 tiny parts', multipart(Array.from({ length: 10_000 }, (_, i) => ({ name: `p${i}`, body: '' }))), formType(), 413],
    ['a part header a megabyte long', multipart([{ name: 'f', headers: [`X-Huge: ${'a'.repeat(1 << 20)}`], body: 'x' }]), formType(), 413],
    ['another type', enc.encode('a=1'), 'application/x-www-form-urlencoded', 415],
  ];
  it.each(cases)('%s', async (_, body, type, status) => {
    const app = echoApp();
    const res = await send(app, chunked(body, [1000]), type);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.text()).not.toMatch(/at .*\.ts|node_modules/);
    const ok = await send(app, multipart([{ name: 'a', body: 'b' }]));
    expect(await ok.json()).toEqual([{ field: 'a', value: 'b' }]);
  });
});

describe('any body FormData encodes, cut anywhere', () => {
  const name = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/[\r\n"\\]/.test(s));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the names parts() refuses are left out
  const filename = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/[/\\\u0000-\u001f\u007f"%]/.test(s) && s !== '.' && s !== '..');
  const entry = fc.oneof(
    fc.record({ kind: fc.constant('field' as const), name, value: fc.string({ maxLength: 200 }).map((s) => s.replace(/\r\n?|\n/g, '\r\n')) }),
    fc.record({ kind: fc.constant('file' as const), name, filename, bytes: fc.uint8Array({ maxLength: 3000 }) }),
  );
  it('reads back every field and file, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 5 }),
        async (entries, sizes) => {
          const form = new FormData();
          for (const e of entries) {
            if (e.kind === 'field') form.append(e.name, e.value);
            else form.append(e.name, new File([e.bytes], e.filename, { type: 'application/x-test' }));
          }
          const encoded = new Request('http://x/', { method: 'POST', body: form });
          const bytes = new Uint8Array(await encoded.arrayBuffer());
          const app = new App();
          app.post('/upload', async (c) => {
            const out: unknown[] = [];
            for await (const p of parts(c))
              out.push(
                p.kind === 'field' ? ['field', p.name, p.value] : ['file', p.name, p.filename, [...new Uint8Array(await new Response(p.body).arrayBuffer())]],
              );
            return c.json(out);
          });
          const res = await send(app, chunked(bytes, sizes), encoded.headers.get('content-type')!);
          expect(res.status).toBe(200);
          expect(await res.json()).toEqual(entries.map((e) => (e.kind === 'field' ? ['field', e.name, e.value] : ['file', e.name, e.filename, [...e.bytes]])));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('chunk boundaries', () => {
  it('reads the same parts however the body is cut, one size for every cut from 1 to 120 bytes', async () => {
    const body = multipart([
      { name: 'a', body: 'x' },
      { name: 'f', filename: 'f.bin', type: 'application/x-test', body: pattern(37) },
      { name: 'b', body: '' },
    ]);
    const app = echoApp();
    for (let size = 1; size <= 120; size++) {
      const res = await send(app, chunked(body, [size]));
      expect({ size, status: res.status }).toEqual({ size, status: 200 });
      expect(((await res.json()) as unknown[]).length).toBe(3);
    }
  });
});

describe('memory', () => {
  it('holds one request chunk at a time: 64 MiB through a 64 KiB-chunk stream never piles up', async () => {
    const size = 64 * 1024 * 1024;
    const head = new TextEncoder().encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\n\r\n`);
    const tail = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`);
    const block = pattern(65536);
    let sent = 0;
    let pulledAhead = 0;
    let consumed = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (sent === 0) controller.enqueue(head);
          if (sent >= size) {
            controller.enqueue(tail);
            controller.close();
            return;
          }
          controller.enqueue(block);
          sent += block.byteLength;
          pulledAhead = Math.max(pulledAhead, sent - consumed);
        },
      },
      { highWaterMark: 0 },
    );
    const app = new App();
    app.post('/upload', async (c) => {
      for await (const p of parts(c, { maxFileSize: size, maxTotalSize: size + 1024 })) {
        if (p.kind !== 'file') continue;
        const reader = p.body.getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) consumed += r.value.byteLength;
      }
      return c.json({ consumed });
    });
    const res = await send(app, stream);
    expect(await res.json()).toEqual({ consumed: size });
    // What was read from the request but not yet given to the handler: a chunk or two.
    expect(pulledAhead).toBeLessThanOrEqual(3 * 65536);
  });
});
