// Large uploads: one file of `sizeMiB` streamed to disk by Rove (rove/uploads) and by Hono
// (c.req.parseBody()), per runtime, each in its own server process: throughput, and how far the
// server's resident set rose above where it stood before the upload (its peak, VmHWM, reset first).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, freePort, processTree, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { peakRssMB, resetPeakRss, rssMB } from './proc-stats.ts';

export type UploadFramework = 'rove' | 'hono' | 'raw';
export type UploadRuntime = 'node' | 'deno' | 'bun';

export interface UploadRow {
  runtime: UploadRuntime;
  framework: UploadFramework;
  /** The file's size. */
  sizeMiB: number;
  /** Per round: MB/s (10^6 bytes) from the first byte sent to the answer. */
  mbps: (number | null)[];
  /** Per round: the peak resident set minus the resident set just before, in MiB. */
  growthMiB: (number | null)[];
  /** What went wrong, when a round failed (a refusal, a crash, out of memory). */
  error?: string;
}

export interface UploadsResult {
  rows: UploadRow[];
}

/** `into`'s rows, with those of `fresh` in place of the same runtime and framework. */
export function mergeUploads(into: UploadsResult | undefined, fresh: UploadsResult): UploadsResult {
  const kept = (into?.rows ?? []).filter((r) => !fresh.rows.some((f) => f.runtime === r.runtime && f.framework === r.framework));
  const order = ['node', 'deno', 'bun'];
  const frameworks = ['rove', 'hono', 'raw'];
  return {
    rows: [...kept, ...fresh.rows].sort(
      (a, b) => order.indexOf(a.runtime) - order.indexOf(b.runtime) || frameworks.indexOf(a.framework) - frameworks.indexOf(b.framework),
    ),
  };
}

const BOUNDARY = 'rove-bench-boundary';
const HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const TAIL = `\r\n--${BOUNDARY}--\r\n`;
const FRAMING = HEAD.length + TAIL.length;

/** A multipart body of one file of `size` bytes, made as it is sent. */
function body(size: number): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const block = new Uint8Array(64 * 1024).map((_, i) => (i * 31) & 0xff);
  let sent = -1;
  return new ReadableStream({
    pull(controller) {
      if (sent < 0) {
        controller.enqueue(enc.encode(HEAD));
        sent = 0;
      } else if (sent < size) {
        const n = Math.min(block.byteLength, size - sent);
        controller.enqueue(n === block.byteLength ? block : block.subarray(0, n));
        sent += n;
      } else {
        controller.enqueue(enc.encode(TAIL));
        controller.close();
      }
    },
  });
}

function command(runtime: UploadRuntime, framework: UploadFramework): { bin: string; args: string[] } {
  const entry = `bench/uploads/${framework}.ts`;
  if (runtime === 'node') return { bin: resolveBin('node'), args: ['--conditions=source', '--import', 'tsx', entry] };
  if (runtime === 'deno') return { bin: resolveBin('deno'), args: ['run', '-A', entry] };
  return { bin: resolveBin('bun'), args: [entry] };
}

async function startServer(runtime: UploadRuntime, framework: UploadFramework, dir: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const { bin, args } = command(runtime, framework);
  const child = startChild(bin, args, { PORT: String(port), UPLOAD_DIR: dir, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; ) {
    if (child.exited) throw new Error(`exited before it was ready:\n${child.output()}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url };
    if (Date.now() > deadline) throw new Error(`not ready in 30 s:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function post(url: string, size: number, timeoutMs: number): Promise<void> {
  const res = await fetch(`${url}/upload`, {
    method: 'POST',
    body: body(size),
    // The bare server stores the whole message: it subtracts the framing to answer the file's size.
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'x-framing-bytes': String(FRAMING) },
    duplex: 'half',
    signal: AbortSignal.timeout(timeoutMs),
  } as RequestInit);
  const text = await res.text();
  if (res.status !== 201) throw new Error(`answered ${res.status}: ${text.slice(0, 200)}`);
  const stored = (JSON.parse(text) as { size: number }).size;
  if (stored !== size) throw new Error(`stored ${stored} bytes of ${size}`);
}

/** One round of one target, in a server started for it. */
async function round(runtime: UploadRuntime, framework: UploadFramework, size: number, timeoutMs: number): Promise<{ mbps: number; growthMiB: number }> {
  const dir = mkdtempSync(join(tmpdir(), `rove-bench-uploads-${runtime}-${framework}-`));
  const server = await startServer(runtime, framework, dir);
  try {
    await post(server.url, 4 * 1024 * 1024, timeoutMs); // warm-up
    const pids = processTree(server.child.pid);
    const before = rssMB(pids) ?? 0;
    resetPeakRss(pids);
    const started = performance.now();
    await post(server.url, size, timeoutMs);
    const seconds = (performance.now() - started) / 1000;
    const peak = peakRssMB(processTree(server.child.pid)) ?? before;
    return { mbps: size / 1e6 / seconds, growthMiB: Math.max(0, peak - before) };
  } finally {
    await stopChild(server.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Measure every runtime × framework, `rounds` times, alternating the frameworks within a round
 * so that both see the same machine.
 */
export async function measureUploads(o: {
  /** The file's size on each runtime. */
  sizeMiB: (runtime: UploadRuntime) => number;
  rounds: number;
  runtimes: UploadRuntime[];
  frameworks?: UploadFramework[];
  timeoutMs?: number;
  log?: (line: string) => void;
}): Promise<UploadsResult> {
  const rows: UploadRow[] = [];
  for (const runtime of o.runtimes)
    for (const framework of o.frameworks ?? (['rove', 'hono', 'raw'] as const))
      rows.push({ runtime, framework, sizeMiB: o.sizeMiB(runtime), mbps: [], growthMiB: [] });
  for (let r = 0; r < o.rounds; r++) {
    for (const row of rows) {
      try {
        const m = await round(row.runtime, row.framework, row.sizeMiB * 1024 * 1024, o.timeoutMs ?? 600_000);
        row.mbps.push(m.mbps);
        row.growthMiB.push(m.growthMiB);
        o.log?.(`round ${r + 1} ${row.runtime} ${row.framework}: ${m.mbps.toFixed(0)} MB/s, resident set +${m.growthMiB.toFixed(0)} MiB`);
      } catch (error) {
        row.mbps.push(null);
        row.growthMiB.push(null);
        row.error ??= (error as Error).message.split('\n')[0];
        o.log?.(`round ${r + 1} ${row.runtime} ${row.framework}: failed: ${row.error}`);
      }
    }
  }
  return { rows };
}
