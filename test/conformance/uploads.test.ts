// examples/uploads on every runtime: the same multipart requests get the same parts stored (on disk
// under Node, Deno, Bun and deno serve; in Miniflare's R2 under workerd) and the same refusals.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDARY, formType, multipart, pattern } from '../uploads/helpers.ts';
import { CONFORMANCE_RUNTIMES, type Running, start } from './servers.ts';

const MAX = 8 * 1024 * 1024;
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const big = pattern(6 * 1024 * 1024);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe.each(CONFORMANCE_RUNTIMES)('examples/uploads on %s', (runtime) => {
  let s: Running;
  const dir = mkdtempSync(join(tmpdir(), `rove-uploads-${runtime}-`));
  const onDisk = runtime !== 'workerd';
  beforeAll(async () => {
    s = await start(runtime, 'examples/uploads', '/', { UPLOAD_DIR: dir, MAX_FILE_SIZE: String(MAX) }, { MAX_FILE_SIZE: String(MAX) });
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: BodyInit, headers: Record<string, string> = {}) => fetch(`${s.url}/upload`, { method: 'POST', body, headers });

  it('streams two files into the store, and tells what their first bytes are', async () => {
    const form = new FormData();
    form.append('description', 'holiday <b>');
    form.append('file', new File([png], 'a.png', { type: 'image/png' }));
    form.append('more', new File([big], 'big.bin'));
    const res = await post(form);
    expect(res.status).toBe(201);
    const out = (await res.json()) as { description: string; files: { name: string; key: string; size: number; kind: string; sha256?: string }[] };
    expect(out.description).toBe('holiday <b>');
    expect(out.files.map(({ name, size, kind }) => ({ name, size, kind }))).toEqual([
      { name: 'a.png', size: png.byteLength, kind: 'png' },
      { name: 'big.bin', size: big.byteLength, kind: 'unknown' },
    ]);
    if (onDisk) {
      expect(out.files.map((f) => f.sha256)).toEqual([sha(png), sha(big)]);
      expect(sha(readFileSync(join(dir, out.files[1]!.key)))).toBe(sha(big));
    }
  });

  it('answers a file over the limit with 413 naming it, as problem+json or an HTML page, and keeps no part of it', async () => {
    const before = onDisk ? readdirSync(dir).length : 0;
    const over = () => {
      const form = new FormData();
      form.append('file', new File([pattern(MAX + 1024 * 1024)], 'over.bin'));
      return form;
    };
    const res = await post(over());
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ status: 413, limit: 'maxFileSize', max: MAX, detail: `A file is larger than ${MAX} bytes` });
    const page = await post(over(), { accept: 'text/html' });
    expect(page.status).toBe(413);
    expect(await page.text()).toContain(`A file is larger than ${MAX} bytes`);
    if (onDisk) expect(readdirSync(dir).length).toBe(before);
  });

  const enc = new TextEncoder();
  const hostile: [string, Uint8Array<ArrayBuffer>, string, number][] = [
    ['a filename with ../', multipart([{ name: 'file', filename: '../../x.txt', body: 'x' }]), formType(), 400],
    ['no boundary', multipart([{ name: 'file', filename: 'a', body: 'x' }]), 'multipart/form-data', 400],
    ['a boundary that never closes', multipart([{ name: 'file', filename: 'a', body: 'x' }], { close: false }), formType(), 400],
    ['a body that stops mid-part', multipart([{ name: 'file', filename: 'a', body: pattern(9000) }]).slice(0, 5000), formType(), 400],
    ['10,000 tiny parts', multipart(Array.from({ length: 10_000 }, (_, i) => ({ name: `p${i}`, body: '' }))), formType(), 413],
    ['a part header a megabyte long', multipart([{ name: 'file', filename: 'a', headers: [`X-Huge: ${'a'.repeat(1 << 20)}`], body: 'x' }]), formType(), 413],
    ['a field over 4 KiB', multipart([{ name: 'description', body: 'd'.repeat(5000) }]), formType(), 413],
    ['a urlencoded body', enc.encode('file=x'), 'application/x-www-form-urlencoded', 415],
  ];
  it.each(hostile)('refuses %s cleanly, and keeps serving', async (_, body, type, status) => {
    const res = await post(body, { 'content-type': type });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.text()).not.toMatch(/\bat .*\.(ts|js):\d|node_modules/);
    expect((await fetch(`${s.url}/`)).status).toBe(200);
  });

  it('skips a part it does not know without holding it', async () => {
    const body = multipart([
      { name: 'unknown', filename: 'skip.bin', body: pattern(3 * 1024 * 1024) },
      { name: 'file', filename: 'kept.txt', type: 'text/plain', body: 'kept' },
    ]);
    const res = await post(body, { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` });
    // The example stores every file part; both arrive, in order.
    expect(((await res.json()) as { files: { name: string }[] }).files.map((f) => f.name)).toEqual(['skip.bin', 'kept.txt']);
  });
});
