// esbuild's metafile for a bundle built in memory: what a bundler would put in a user's bundle.
// Shared by the adapters' bundle tests and the bench's bundle sizes.
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { ROOT } from './proc.ts';

export { ROOT } from './proc.ts';

export interface Bundled {
  metafile: Metafile;
  /** The first output file's bytes (0 when esbuild wrote none). */
  bytes: number;
}

/** Bundle in memory from the repository root, silently, with a metafile. */
export async function bundleOf(options: BuildOptions): Promise<Bundled> {
  const out = await build({ absWorkingDir: ROOT, bundle: true, format: 'esm', logLevel: 'silent', ...options, write: false, metafile: true });
  return { metafile: out.metafile, bytes: out.outputFiles[0]?.contents.byteLength ?? 0 };
}

/** Every module a bundle imports and left outside it (node: built-ins, external packages), sorted. */
export function externalImports(metafile: Metafile): string[] {
  const found = new Set<string>();
  for (const input of Object.values(metafile.inputs)) for (const i of input.imports) if (i.external) found.add(i.path);
  return [...found].sort();
}

/**
 * What a Workers build does (wrangler's esbuild step), minified: one ES module,
 * no Node built-ins assumed, the `workerd`/`worker`/`browser` export conditions.
 */
export const WORKERS_BUILD = {
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['workerd', 'worker', 'browser', 'module', 'main'],
} as const satisfies BuildOptions;
