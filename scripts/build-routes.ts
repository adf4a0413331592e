/**
 * npm run build:routes -- <routes dir> <out module> [--views <views bundle module>]
 *
 * Writes the routes manifest for runtimes that read no files (Cloudflare
 * Workers, Deno Deploy): a static import of every route and middleware
 * module, and of the views bundle (`npm run build:views`) when given, so that
 * wrangler/esbuild and Deno Deploy bundle them. The edge entry then does
 *
 *   import manifest from './routes.gen.ts';
 *   fileRoutes(app, manifest);
 *
 * A bad file name or two files for one route fail the build.
 */
import { resolve } from 'node:path';
import { buildRoutes as build } from '../adapters/cli/build-routes.ts';
import { FileRouteError } from '../src/fs-routes/conventions.ts';

/** The shipped `rove build:routes`, named after this repository's npm script in the header it writes. */
export function buildRoutes(dir: string, out: string, options: { views?: string } = {}): Promise<number> {
  return build(dir, out, { ...options, command: 'npm run build:routes' });
}

async function main(argv: string[]): Promise<void> {
  let views: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--views') views = argv[++i];
    else paths.push(argv[i]!);
  }
  if (paths.length !== 2 || (argv.includes('--views') && !views)) {
    console.error('usage: build-routes <routes dir> <out module> [--views <views bundle module>]');
    process.exit(2);
  }
  const n = await buildRoutes(paths[0]!, paths[1]!, { views });
  console.log(`build:routes: ${paths[0]} -> ${paths[1]} (${n} modules${views ? `, views ${views}` : ''})`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof FileRouteError ? `build:routes: ${err.message}` : err);
    process.exit(1);
  });
}
