// npm run bench:size: the two-route app built with Rove and with Hono, and
// examples/hello's worker, bundled like a Workers build; sizes in every report.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLES, type BundleSizes, bundle, measureBundleSizes, roveOverHono } from '../../bench/lib/bundle-size.ts';
import { type BenchResult, emptyRow } from '../../bench/lib/result.ts';
import { buildDocument } from '../../bench/report/document.ts';
import { renderHtml } from '../../bench/report/html.ts';
import { renderMarkdown } from '../../bench/report/markdown.ts';
import { summaryText } from '../../bench/report/summary.ts';
import { ROOT } from '../../dev/proc.ts';

const dir = mkdtempSync(join(tmpdir(), 'rove-bench-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runScript(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bundle-size.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('bench:size', () => {
  let sizes: BundleSizes;
  beforeAll(async () => {
    sizes = await measureBundleSizes();
  });

  it('builds the Rove app, the Hono app and the hello worker, and reports bytes and gzipped bytes', () => {
    expect(sizes.bundles.map((b) => b.id)).toEqual(['rove', 'hono', 'hello-worker']);
    for (const b of sizes.bundles) {
      expect(b.error, `${b.entry}: ${b.error}`).toBeNull();
      expect(b.bytes).toBeGreaterThan(1000);
      expect(b.gzipBytes).toBeGreaterThan(0);
      expect(b.gzipBytes!).toBeLessThan(b.bytes!);
    }
    expect(sizes.versions.esbuild).toMatch(/^\d+\.\d+\.\d+/);
    expect(sizes.command).toContain('--platform=neutral');
    const r = roveOverHono(sizes);
    expect(r.bytes).toBeGreaterThan(0);
    expect(r.gzipBytes).toBeGreaterThan(0);
  });

  it('bundles what each app imports: Rove from the repo, Hono from node_modules', async () => {
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    const rove = text(await bundle(BUNDLES[0]!.entry));
    const hono = text(await bundle(BUNDLES[1]!.entry));
    // Both serve the same two routes, as one ES module with a default export.
    for (const code of [rove, hono]) {
      expect(code).toContain('/users/:id');
      expect(code).toMatch(/export\s*\{[^}]*as default/);
    }
    // The sizes are deterministic: a second build gives the same bytes.
    expect(rove.length).toBe(sizes.bundles[0]!.bytes);
  });

  it('prints the figures as a table and as JSON', async () => {
    const table = await runScript([]);
    expect(table.code, table.err).toBe(0);
    expect(table.out).toContain('Two-route app, Rove');
    expect(table.out).toContain('Two-route app, Hono');
    expect(table.out).toMatch(/rove\/hono: \d+\.\d\d×/);
    const json = await runScript(['--json']);
    expect(json.code, json.err).toBe(0);
    const parsed = JSON.parse(json.out) as BundleSizes;
    expect(parsed.bundles.map((b) => [b.id, b.bytes, b.gzipBytes])).toEqual(sizes.bundles.map((b) => [b.id, b.bytes, b.gzipBytes]));
  });

  it('stores the figures in a bench result with --into and renders them in its reports', async () => {
    const file = join(dir, 'run.json');
    const result: BenchResult = {
      meta: { date: '2026-01-02T03:04:05.000Z', host: { cpus: 2, cpuModel: 'Test CPU', memGiB: 8, os: 'TestOS' }, versions: {} },
      config: { profile: 'quick', connections: 10, pipelining: 1, durationS: 1, warmupS: 0.5, rounds: 1 },
      rows: [{ ...emptyRow('node', 'rove', 'test', 'failed to start: test') }],
    };
    writeFileSync(file, JSON.stringify(result));
    const run = await runScript(['--into', file]);
    expect(run.code, run.err).toBe(0);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as BenchResult;
    expect(stored.bundleSizes?.bundles.map((b) => b.bytes)).toEqual(sizes.bundles.map((b) => b.bytes));
    expect(readFileSync(join(dir, 'run.md'), 'utf8')).toContain('## Bundle size');
    expect(readFileSync(join(dir, 'run.html'), 'utf8')).toContain('id="bundle-size"');
  });

  // A ceiling, not the budget: the budget was 1.10x Hono's minified, and the core, with every member
  // its types show, measures 1.36x. The ceiling keeps it from growing unnoticed; the sizes are deterministic for a tree, esbuild and
  // hono version, so this cannot flake with the machine. It rose from 1.36x for a 67-byte route-registration fast path that
  // saves a start about 0.25 M instructions (docs/benchmarks/methods.md, counted); a byte of bundle costs about 280 to parse.
  it("Rove's two-route app bundles within 1.37x Hono's, minified", () => {
    const rove = sizes.bundles.find((b) => b.id === 'rove')!;
    const hono = sizes.bundles.find((b) => b.id === 'hono')!;
    expect(rove.bytes!).toBeLessThanOrEqual(Math.floor(hono.bytes! * 1.37));
  });
});

describe('bundle sizes in the report writers', () => {
  const sizes: BundleSizes = {
    date: '2026-01-02T03:04:05.000Z',
    versions: { rove: '0.1.0 (abc1234)', hono: '4.13.19', esbuild: '0.27.3' },
    command: 'esbuild ENTRY --bundle --minify (gzip level 9)',
    bundles: [
      { id: 'rove', label: 'Two-route app, Rove', entry: 'bench/size/rove.ts', bytes: 33_700, gzipBytes: 12_400, error: null },
      { id: 'hono', label: 'Two-route app, Hono', entry: 'bench/size/hono.ts', bytes: 20_200, gzipBytes: 8_500, error: null },
      {
        id: 'hello-worker',
        label: 'examples/hello worker (Rove)',
        entry: 'examples/hello/worker.ts',
        bytes: null,
        gzipBytes: null,
        error: 'esbuild failed: nope',
      },
    ],
  };
  const result: BenchResult = {
    meta: { date: '2026-01-02T03:04:05.000Z', host: { cpus: 2, cpuModel: 'Test CPU', memGiB: 8, os: 'TestOS' }, versions: {} },
    config: { profile: 'default', connections: 100, pipelining: 1, durationS: 10, warmupS: 3, rounds: 1 },
    rows: [emptyRow('node', 'rove', 'test', 'failed to start: test')],
    bundleSizes: sizes,
  };

  it('gives them their own section in Markdown and HTML, minified and gzipped beside Hono, bold where Rove is larger', () => {
    const doc = buildDocument(result, 'c');
    const md = renderMarkdown(doc);
    expect(md).toContain('## Bundle size');
    expect(md).toContain('| Two-route app, Rove | `bench/size/rove.ts` | 33.7 KB | 12.4 KB | **1.67×** | **1.46×** |');
    expect(md).toContain('| Two-route app, Hono | `bench/size/hono.ts` | 20.2 KB | 8.5 KB | – | – |');
    expect(md).toContain('`examples/hello/worker.ts`: esbuild failed: nope');
    const html = renderHtml(doc);
    expect(html).toContain('<h2 id="bundle-size">Bundle size</h2>');
    expect(html).toContain('<td class="num bad"><strong>1.67×</strong></td>');
  });

  it('leaves the section out of reports of runs that have no sizes, and prints them in the summary', () => {
    expect(renderMarkdown(buildDocument({ ...result, bundleSizes: undefined }, 'c'))).not.toContain('Bundle size');
    expect(summaryText(result)).toMatch(/rove\/hono: 1\.67× \(gzip 1\.46×\)/);
  });
});
