/**
 * npm run build:views -- <views dir> <out module> [<views dir> <out module> ...] [--ext .dve]
 * (with no paths: examples/hello/views -> examples/hello/views.gen.ts)
 *
 * Writes a module holding every view of the directory pre-parsed, for
 * runtimes that read no files (Cloudflare Workers, Deno Deploy):
 *
 *   import views from './views.gen.ts';
 *   createViews({ compiled: views });
 *
 * The module is plain data (valid as .ts and .js); a syntax error, a missing
 * include or an unknown layout block fails the build.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildViews as build } from '../adapters/cli/build-views.ts';
import { ViewError } from '../adapters/shared/views-fs.ts';

/** The shipped `rove build:views`, named after this repository's npm script in the header it writes. */
export function buildViews(dir: string, out: string, ext = '.dve'): Promise<number> {
  return build(dir, out, ext, 'npm run build:views');
}

async function main(argv: string[]): Promise<void> {
  let ext = '.dve';
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--ext') ext = argv[++i] ?? '';
    else paths.push(argv[i]!);
  }
  if (paths.length === 0) paths.push('examples/hello/views', 'examples/hello/views.gen.ts');
  if (paths.length % 2 !== 0) {
    console.error('usage: build-views <views dir> <out module> [<views dir> <out module> ...] [--ext .dve]');
    process.exit(2);
  }
  for (let i = 0; i < paths.length; i += 2) {
    const n = await buildViews(paths[i]!, paths[i + 1]!, ext);
    console.log(`build:views: ${paths[i]} -> ${paths[i + 1]} (${n} views)`);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof ViewError ? `build:views: ${err.message}` : err);
    process.exit(1);
  });
}
