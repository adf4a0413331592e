/**
 * The package.json that `npm pack` and `npm publish` ship: the repository's, less what serves
 * only the repository (its scripts and devDependencies). Run by the package's lifecycle scripts:
 *
 *   prepack:  npm run build && node --import tsx scripts/pack-manifest.ts write
 *   postpack: node --import tsx scripts/pack-manifest.ts restore
 *
 * Meanwhile the repository's package.json waits, byte for byte, in .package.json.prepack. A pack
 * that failed between the two leaves it there: the next `write` or `restore` puts it back first.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Top-level fields of package.json that only the repository uses. */
export const REPOSITORY_ONLY = ['scripts', 'devDependencies'] as const;

export const BACKUP = '.package.json.prepack';

/** The manifest to publish: the same fields in the same order, less the repository-only ones. */
export function publishedManifest(pkg: Record<string, unknown>): Record<string, unknown> {
  const out = { ...pkg };
  for (const field of REPOSITORY_ONLY) delete out[field];
  return out;
}

/** Puts the repository's package.json back, if a pack set it aside. */
export function restore(root: string): boolean {
  const backup = join(root, BACKUP);
  if (!existsSync(backup)) return false;
  renameSync(backup, join(root, 'package.json'));
  return true;
}

/** Sets the repository's package.json aside and writes the published one in its place. */
export function write(root: string): void {
  restore(root);
  const file = join(root, 'package.json');
  const text = readFileSync(file, 'utf8');
  writeFileSync(join(root, BACKUP), text);
  writeFileSync(file, `${JSON.stringify(publishedManifest(JSON.parse(text)), null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // npm runs lifecycle scripts in the package's folder.
  const root = process.cwd();
  const command = process.argv[2];
  if (command === 'write') write(root);
  else if (command === 'restore') restore(root);
  else {
    console.error('usage: node --import tsx scripts/pack-manifest.ts write|restore');
    process.exitCode = 2;
  }
}
