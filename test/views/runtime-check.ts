/**
 * Renders the syntax table and exercises the filesystem loader on whatever
 * runtime runs it, printing one JSON line. fs.test.ts runs it under
 * `node --disallow-code-generation-from-strings`, Deno and Bun.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderCases } from './cases.ts';

const g = globalThis as { Deno?: unknown; Bun?: unknown };
const runtime = g.Deno !== undefined ? 'deno' : g.Bun !== undefined ? 'bun' : 'node';
// Deno's rove/views reads files with Deno's own API (no node: module); Node and Bun share node:fs.
const { createViews, fileSource } = (await import(
  runtime === 'deno' ? '../../adapters/deno/views.ts' : '../../adapters/shared/views-fs.ts'
)) as typeof import('../../adapters/shared/views-fs.ts');

// Proves the flag is on when it should be: code generation from strings must throw.
let codegen = 'allowed';
try {
  new Function('return 1')();
} catch {
  codegen = 'blocked';
}

const cases = await renderCases(createViews);

const root = await mkdtemp(join(tmpdir(), 'rove-views-'));
// A directory name with characters that mean something in a URL: the loaders take it as a name.
const dir = join(root, 'views #1%');
await mkdir(join(dir, 'parts'), { recursive: true });
await writeFile(join(root, 'secret.dve'), 'SECRET');
await writeFile(join(dir, 'page.dve'), '{{< layout}}{{#block body}}{{#each xs}}{{> parts/item}}{{/each}}{{/block}}{{/}}');
await writeFile(join(dir, 'layout.dve'), '<main>{{#slot body}}{{/slot}}</main>');
await writeFile(join(dir, 'parts/item.dve'), '<i>{{ item }}</i>');

const data = { xs: [1, 'フ'] };
const cached = createViews({ dir });
const dev = createViews({ dir, dev: true });
const first = await cached.render('page', data);
const devFirst = await dev.render('page.dve', data);
await writeFile(join(dir, 'parts/item.dve'), '<b>{{ item }}</b>');
const devEdited = await dev.render('page.dve', data);
const cachedAfterEdit = await cached.render('page', data);
const streamed = await new Response(cached.stream('page', data)).text();
let traversal = 'rendered';
try {
  await cached.render('../secret');
} catch (e) {
  traversal = (e as { kind?: string }).kind ?? 'unknown';
}
const listed = (await fileSource(pathToFileURL(dir)).list!()).join(' ');
const byUrl = await createViews({ dir: pathToFileURL(dir) }).render('page', data);
await rm(root, { recursive: true, force: true });

console.log(JSON.stringify({ runtime, codegen, cases, fs: { first, devFirst, devEdited, cachedAfterEdit, streamed, traversal, listed, byUrl } }));
