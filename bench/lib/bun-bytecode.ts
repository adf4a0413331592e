// A Bun entry built the way Bun documents for fast starts: Bun's own bundler with its bytecode
// cache (`bun build --target=bun --format=cjs --bytecode --minify`), so JavaScriptCore loads
// precompiled bytecode instead of parsing and compiling the source. Bun 1.4 gives ESM bytecode
// only with --compile, hence CommonJS. Used by bench/cold-compare.ts and bench/cold-cost.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, resolveBin } from '../../dev/proc.ts';
import { GZIP_LEVEL } from './bundle-size.ts';
import { type ColdPlan, linkPublic, type Prepared } from './cold-start-apps.ts';

export const BUN_BYTECODE_COMMAND = 'bun build ENTRY --target=bun --format=cjs --bytecode --minify';

/**
 * Builds a Bun entry (relative to the repository root) with its bytecode into `dir`; returns the
 * module to run. The files the app reads at startup are linked beside it (examples/notes' public/).
 */
export function buildBunBytecode(entry: string, dir: string): string {
  const args = ['build', join(ROOT, entry), '--target=bun', '--format=cjs', '--bytecode', '--minify', '--outdir', dir];
  execFileSync(resolveBin('bun'), args, { cwd: ROOT, stdio: 'pipe' });
  const main = join(dir, `${basename(entry).replace(/\.ts$/, '')}.js`);
  if (!existsSync(`${main}.jsc`)) throw new Error(`bun build wrote no bytecode for ${entry}`);
  linkPublic(entry, dir);
  return main;
}

/** `plan`'s entry (a Bun entry) built with its bytecode in workDir, as bench/cold-*.ts start it. */
export function prepareBunBytecode(plan: ColdPlan, workDir: string): Prepared {
  if (plan.runtime !== 'bun') throw new Error(`--bytecode is for Bun entries, not ${plan.runtime}`);
  const main = buildBunBytecode(plan.entry, join(workDir, `bun-bytecode-${plan.app}`));
  // The JavaScript's size, as for other bundles; the bytecode beside it is several times larger.
  const source = readFileSync(main);
  return {
    main,
    bundleBytes: source.byteLength,
    bundleGzipBytes: gzipSync(source, { level: GZIP_LEVEL }).byteLength,
    dir: null,
  };
}
