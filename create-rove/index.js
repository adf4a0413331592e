#!/usr/bin/env node
// `npm create rove my-app`: writes a new Rove app from ./template. No dependencies, so
// `npm create` runs it at once. Plain JavaScript: it must run before anything is installed.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const TEMPLATE = join(HERE, 'template');
const { version } = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'));

// The tools the app's scripts use, at the versions Rove itself is tested with. Deno and Bun
// come from npm as well, so every start:* script runs after `npm install` alone.
export const DEV_DEPENDENCIES = {
  '@cloudflare/vitest-pool-workers': '0.12.21',
  '@types/node': '20.19.43',
  bun: '1.4.5',
  deno: '2.9.6',
  tsx: '4.23.15',
  typescript: '5.9.3',
  vitest: '3.2.7',
  wrangler: '4.86.0',
};

const HELP = `Usage: npm create rove [dir] [-- --yes] [--rove <version|path|tarball>]

  dir              where to write the app (default: rove-app)
  --yes, -y        ask nothing; use the defaults
  --rove <spec>    which Rove to depend on: a version range (default ^${version}),
                   or a local checkout or a packed rove-*.tgz (written as file:<absolute path>)
  --help, -h       this text`;

/** What package.json says for the `rove` dependency. */
export function roveSpec(given) {
  if (given === undefined) return `^${version}`;
  const path = resolve(given);
  // A path that exists (a checkout or a tarball) becomes file:, anything else is a version range.
  if (existsSync(path)) return `file:${path}`;
  return given;
}

/** A valid npm package name from a directory name. */
export function packageName(dir) {
  const name = basename(resolve(dir))
    .toLowerCase()
    // Letters, digits and dashes: valid as an npm name and as a Worker name in wrangler.toml.
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return name || 'rove-app';
}

// Expanded by the sh that npm runs scripts with: HOST and PORT, or the entries' defaults.
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
const HOST = '${HOST:-127.0.0.1}';
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
const PORT = '${PORT:-8000}';

function packageJson(name, rove) {
  return {
    name,
    version: '0.0.0',
    private: true,
    type: 'module',
    scripts: {
      start: 'npm run start:node',
      // node, deno and bun entries read PORT and HOST themselves; deno serve and wrangler dev take flags.
      'start:node': 'tsx src/node.ts',
      'start:deno': 'deno run --allow-net --allow-env --allow-read --unstable-cron src/deno.ts',
      'start:bun': 'bun src/bun.ts',
      'start:deploy': `deno serve --allow-env --allow-read --unstable-cron --host ${HOST} --port ${PORT} src/deploy.ts`,
      'start:workers': `wrangler dev --ip ${HOST} --port ${PORT}`,
      deploy: 'wrangler deploy',
      // The Node tests, then those that run inside workerd (vitest.workers.config.ts).
      test: 'vitest run && vitest run -c vitest.workers.config.ts',
      'test:workers': 'vitest run -c vitest.workers.config.ts',
      // The app on all five runtimes, requests.http sent to each: where do the answers differ?
      parity: 'rove parity',
      typecheck: 'tsc --noEmit',
    },
    dependencies: { rove },
    devDependencies: DEV_DEPENDENCIES,
  };
}

function copyTemplate(from, to, name) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    // npm drops .gitignore from published packages, so the template keeps it as _gitignore.
    const target = join(to, entry === '_gitignore' ? '.gitignore' : entry);
    if (statSync(source).isDirectory()) copyTemplate(source, target, name);
    else writeFileSync(target, readFileSync(source, 'utf8').replaceAll('APP_NAME', name));
  }
}

/** Write the app into `dir`; returns the files written, relative to it. */
export function scaffold(dir, { rove } = {}) {
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0) throw new Error(`${dir} exists and is not empty; choose another directory`);
  const name = packageName(target);
  copyTemplate(TEMPLATE, target, name);
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(packageJson(name, roveSpec(rove)), null, 2)}\n`);
  const list = (d) => readdirSync(d).flatMap((e) => (statSync(join(d, e)).isDirectory() ? list(join(d, e)) : [relative(target, join(d, e))]));
  return list(target).sort();
}

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { yes: { type: 'boolean', short: 'y' }, rove: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  let dir = positionals[0];
  if (dir === undefined && !values.yes && process.stdin.isTTY) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    dir = (await rl.question('Where should the app go? (rove-app) ')).trim() || undefined;
    rl.close();
  }
  dir ??= 'rove-app';
  const files = scaffold(dir, { rove: values.rove });
  const shown = relative(process.cwd(), resolve(dir)) || '.';
  console.log(`Wrote a Rove app in ${shown} (${files.length} files). Next:\n\n  cd ${shown}\n  npm install && npm start\n  npm test\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`create-rove: ${error.message}`);
    process.exitCode = 1;
  });
}
