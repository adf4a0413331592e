// The `rove` command (package.json `bin`, through bin.ts): build steps for runtimes that read no files.
//   npx rove build:views <views dir> <out module> [<dir> <out> ...] [--ext .dve]
//   npx rove build:routes <routes dir> <out module> [--views <views module>]
//   npx rove openapi <module> [--export name] [--out file] [--title t --version v]: see openapi.ts
//   npx rove crons <module> [--export name] [--check wrangler.toml]: see crons.ts
import { FileRouteError } from '../../src/fs-routes/conventions.ts';
import { ViewError } from '../shared/views-fs.ts';
import { buildRoutes } from './build-routes.ts';
import { buildViews } from './build-views.ts';
import { CRONS_USAGE, cronsCommand } from './crons.ts';
import { OPENAPI_USAGE, openapiCommand } from './openapi.ts';
import { PARITY_USAGE, parityCommand } from './parity.ts';

const USAGE = `usage:
  rove build:views <views dir> <out module> [<views dir> <out module> ...] [--ext .dve]
  rove build:routes <routes dir> <out module> [--views <views module>]
  ${PARITY_USAGE.slice('usage: '.length)}
  ${OPENAPI_USAGE.slice('usage: '.length)}
  ${CRONS_USAGE.slice('usage: '.length)}`;

/** Run one `rove` command; returns the exit code. `name` is how the command is named in generated headers. */
export async function cli(argv: string[], name = 'rove'): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'parity') return parityCommand(rest);
  if (command === 'openapi') return openapiCommand(rest);
  if (command === 'crons') return cronsCommand(rest);
  const flags: Record<string, string | undefined> = {};
  const paths: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--ext' || rest[i] === '--views') flags[rest[i].slice(2)] = rest[++i] ?? '';
    else paths.push(rest[i]);
  }
  try {
    if (command === 'build:views' && paths.length > 0 && paths.length % 2 === 0) {
      for (let i = 0; i < paths.length; i += 2) {
        const n = await buildViews(paths[i], paths[i + 1], flags.ext ?? '.dve', `${name} build:views`);
        console.log(`build:views: ${paths[i]} -> ${paths[i + 1]} (${n} views)`);
      }
      return 0;
    }
    if (command === 'build:routes' && paths.length === 2 && flags.views !== '') {
      const n = await buildRoutes(paths[0], paths[1], { views: flags.views, command: `${name} build:routes` });
      console.log(`build:routes: ${paths[0]} -> ${paths[1]} (${n} modules${flags.views ? `, views ${flags.views}` : ''})`);
      return 0;
    }
  } catch (error) {
    if (error instanceof ViewError || error instanceof FileRouteError) {
      console.error(`${command}: ${error.message}`);
      return 1;
    }
    throw error;
  }
  console.error(USAGE);
  return 2;
}
