// Bundle size at the edge: a bundle's size is
// cold-start time and a quota on Workers. The same two-route app written with
// Rove and with Hono (bench/size/), and examples/hello's worker, are bundled
// the way a Workers build does it, minified, and measured raw and gzipped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, version as esbuildVersion } from 'esbuild';
import { WORKERS_BUILD } from '../../dev/bundle.ts';
import { ROOT } from '../../dev/proc.ts';
import { gitRevision } from './meta.ts';

export interface BundleEntry {
  id: string;
  label: string;
  /** Entry module, relative to the repository root. */
  entry: string;
  bytes: number | null;
  gzipBytes: number | null;
  error: string | null;
}

export interface BundleSizes {
  date: string;
  versions: { rove: string; hono: string; esbuild: string };
  /** The esbuild settings, as a command line. */
  command: string;
  bundles: BundleEntry[];
}

export const BUNDLES: readonly { id: string; label: string; entry: string }[] = [
  { id: 'rove', label: 'Two-route app, Rove', entry: 'bench/size/rove.ts' },
  { id: 'hono', label: 'Two-route app, Hono', entry: 'bench/size/hono.ts' },
  { id: 'hello-worker', label: 'examples/hello worker (Rove)', entry: 'examples/hello/worker.ts' },
];

export const BUILD_OPTIONS = WORKERS_BUILD;

/** gzip level 9, as `gzip -9`; the figures are deterministic for a given tree and esbuild version. */
export const GZIP_LEVEL = 9;

export const BUILD_COMMAND =
  'esbuild ENTRY --bundle --minify --format=esm --platform=neutral --target=es2022 ' +
  '--conditions=workerd,worker,browser --main-fields=workerd,worker,browser,module,main';

function packageVersion(dir: string): string {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** Bundles one entry in memory; the minified output bytes. */
export async function bundle(entry: string): Promise<Uint8Array> {
  const out = await build({
    ...BUILD_OPTIONS,
    conditions: [...BUILD_OPTIONS.conditions],
    mainFields: [...BUILD_OPTIONS.mainFields],
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, entry)],
    outfile: 'bundle.js',
    write: false,
    logLevel: 'silent',
  });
  const file = out.outputFiles.find((f) => f.path.endsWith('.js'));
  if (!file) throw new Error(`esbuild produced no JavaScript for ${entry}`);
  return file.contents;
}

export async function measureBundleSizes(entries = BUNDLES): Promise<BundleSizes> {
  const bundles: BundleEntry[] = [];
  for (const b of entries) {
    try {
      const code = await bundle(b.entry);
      bundles.push({ ...b, bytes: code.byteLength, gzipBytes: gzipSync(code, { level: GZIP_LEVEL }).byteLength, error: null });
    } catch (err) {
      const e = err as { errors?: { text: string }[]; message: string };
      const why = e.errors?.length ? e.errors.map((x) => x.text).join('; ') : e.message;
      bundles.push({ ...b, bytes: null, gzipBytes: null, error: `esbuild failed: ${why}` });
    }
  }
  return {
    date: new Date().toISOString(),
    versions: {
      rove: `${packageVersion(ROOT)} (${gitRevision()})`,
      hono: packageVersion(join(ROOT, 'node_modules/hono')),
      esbuild: esbuildVersion,
    },
    command: `${BUILD_COMMAND} (gzip level ${GZIP_LEVEL})`,
    bundles,
  };
}

/** Bytes as KB (1 KB = 1,000 bytes), one decimal. */
export function kb(bytes: number | null | undefined): string {
  return bytes == null ? '–' : `${(bytes / 1000).toFixed(1)} KB`;
}

/** Rove's two-route bundle over Hono's, raw and gzipped (null when either failed). */
export function roveOverHono(sizes: BundleSizes): { bytes: number | null; gzipBytes: number | null } {
  const rove = sizes.bundles.find((b) => b.id === 'rove');
  const hono = sizes.bundles.find((b) => b.id === 'hono');
  const r = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || b <= 0 ? null : a / b);
  return { bytes: r(rove?.bytes, hono?.bytes), gzipBytes: r(rove?.gzipBytes, hono?.gzipBytes) };
}
