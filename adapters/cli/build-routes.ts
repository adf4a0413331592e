// `rove build:routes`: the routes manifest for runtimes that read no files (Cloudflare Workers,
// Deno Deploy): a static import of every route and middleware module, so bundlers include them.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { writeManifest } from '../../src/fs-routes/manifest.ts';
import { toFsPath } from '../shared/fs-path.ts';
import { listFiles } from '../shared/fs-routes.ts';

/** An import specifier for `target` as seen from the module `from`. */
function importPath(from: string, target: string): string {
  const rel = relative(dirname(from), target).split('\\').join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * Write the manifest of the routes directory `dir` to `out`, importing the views module
 * `options.views` when given; returns the number of route and middleware modules it imports.
 * A bad file name or two files for one route throw a `FileRouteError`.
 *
 * @example
 * await buildRoutes('src/routes', 'src/routes.gen.ts', { views: 'src/views.gen.ts' });
 */
export async function buildRoutes(dir: string | URL, out: string | URL, options: { views?: string | URL; command?: string } = {}): Promise<number> {
  const root = toFsPath(dir);
  const target = toFsPath(out);
  const files = (await listFiles(root)).map((f) => f.file);
  const from = relative(process.cwd(), root).split('\\').join('/') || '.';
  const text = writeManifest({
    files,
    routesImport: importPath(target, root),
    viewsImport: options.views === undefined ? undefined : importPath(target, toFsPath(options.views)),
    command: `\`${options.command ?? 'rove build:routes'}\` from ${from}`,
  });
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, text);
  return text.split('\n').filter((l) => l.startsWith('import * as')).length;
}
