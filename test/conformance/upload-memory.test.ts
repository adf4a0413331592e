// A large upload streamed to disk keeps the server's memory flat: on Node and Bun the resident
// set grows by less than 64 MiB while a file of UPLOAD_MEMORY_MB (default 256) MiB goes through
// examples/uploads. Deno 2.9's Deno.serve reads a request body ahead of a reader slower than the
// network without bound, Rove or not: there the test holds Rove to Deno's own growth (a bare
// Deno.serve writing the same body to disk) plus 64 MiB. The 1 GB figures are in the report.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { BOUNDARY, formType, pattern } from '../uploads/helpers.ts';
import { type Running, start } from './servers.ts';

const MB = Number(process.env.UPLOAD_MEMORY_MB ?? 256);
const SIZE = MB * 1024 * 1024;
const BOUND = 64 * 1024 * 1024;

/** The process's resident set, in bytes (Linux). */
function rss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** A multipart body of one `size`-byte file, made as it is sent. */
function upload(size: number): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const block = pattern(64 * 1024);
  let sent = -1;
  return new ReadableStream({
    pull(controller) {
      if (sent < 0) {
        controller.enqueue(enc.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`));
        sent = 0;
      } else if (sent < size) {
        const n = Math.min(block.byteLength, size - sent);
        controller.enqueue(n === block.byteLength ? block : block.subarray(0, n));
        sent += n;
      } else {
        controller.enqueue(enc.encode(`\r\n--${BOUNDARY}--\r\n`));
        controller.close();
      }
    },
  });
}

/** Upload `size` bytes to `s` (after a warm-up), sampling its resident set: the growth, and what was stored. */
async function measure(s: Running, size: number, path = '/upload'): Promise<{ growth: number; stored: number; key?: string; seconds: number }> {
  const post = (n: number) =>
    fetch(`${s.url}${path}`, { method: 'POST', body: upload(n), headers: { 'content-type': formType() }, duplex: 'half' } as RequestInit);
  // Warm up: the code paths and their allocations, before the baseline.
  const warm = await post(4 * 1024 * 1024);
  expect(warm.status).toBe(201);
  await warm.arrayBuffer();
  const base = rss(s.child.pid);
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss(s.child.pid));
  }, 10);
  const started = Date.now();
  try {
    const res = await post(size);
    expect(res.status).toBe(201);
    const out = (await res.json()) as { files: { key?: string; size: number }[] };
    peak = Math.max(peak, rss(s.child.pid));
    return { growth: peak - base, stored: out.files[0]!.size, key: out.files[0]!.key, seconds: (Date.now() - started) / 1000 };
  } finally {
    clearInterval(sampler);
  }
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

describe.each(['node', 'bun'] as const)('a %s server taking a large upload', (runtime) => {
  it(`streams ${MB} MiB to disk with its resident set growing by less than 64 MiB`, async () => {
    const dir = mkdtempSync(join(tmpdir(), `rove-upload-memory-${runtime}-`));
    const s = await start(runtime, 'examples/uploads', '/', { UPLOAD_DIR: dir, MAX_FILE_SIZE: String(SIZE + 1) });
    try {
      const m = await measure(s, SIZE);
      console.log(`${runtime}: ${MB} MiB in ${m.seconds.toFixed(1)} s, resident set grew ${mib(m.growth)}`);
      expect(m.stored).toBe(SIZE);
      expect(statSync(join(dir, m.key!)).size).toBe(SIZE);
      expect(m.growth).toBeLessThan(BOUND);
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a deno server taking a large upload', () => {
  // Deno's read-ahead makes a large body slow (about 10 MB/s to disk here), so a smaller one.
  const size = Math.min(SIZE, 64 * 1024 * 1024);
  it(`grows by no more than Deno.serve alone does with the same ${size / 2 ** 20} MiB, plus 64 MiB`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rove-upload-memory-deno-'));
    const rove = await start('deno', 'examples/uploads', '/', { UPLOAD_DIR: dir, MAX_FILE_SIZE: String(size + 1) });
    let bare: Running | undefined;
    try {
      const r = await measure(rove, size);
      await rove.stop();
      bare = await startBareDeno(dir);
      const b = await measure(bare, size, '/');
      console.log(
        `deno: ${size / 2 ** 20} MiB, resident set grew ${mib(r.growth)} under Rove (${r.seconds.toFixed(1)} s), ${mib(b.growth)} under Deno.serve alone (${b.seconds.toFixed(1)} s)`,
      );
      expect(r.stored).toBe(size);
      expect(r.growth).toBeLessThan(b.growth + BOUND);
    } finally {
      await rove.stop();
      await bare?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

/** test/uploads/deno-bare-upload.ts, started as the conformance servers are. */
async function startBareDeno(dir: string): Promise<Running> {
  const port = await freePort();
  const child = startChild(resolveBin('deno'), ['run', '-A', 'test/uploads/deno-bare-upload.ts'], {
    PORT: String(port),
    UPLOAD_DIR: dir,
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; ) {
    if (child.exited) throw new Error(`deno exited:\n${child.output()}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`deno did not start:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { runtime: 'deno', url, child, stop: () => stopChild(child) };
}
