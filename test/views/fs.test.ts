import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createViews, fileSource } from '../../adapters/shared/views-fs.ts';
import { buildViews } from '../../scripts/build-views.ts';
import { createViews as createCoreViews, precompile, ViewError } from '../../src/views/index.ts';
import { cases } from './cases.ts';

const run = promisify(execFile);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string) => join(repo, 'node_modules/.bin', name);

let root: string;
let dir: string;
const write = async (name: string, text: string) => {
  await mkdir(dirname(join(dir, name)), { recursive: true });
  await writeFile(join(dir, name), text);
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rove-views-test-'));
  dir = join(root, 'views');
  await writeFile(join(root, 'secret.dve'), 'SECRET');
  await write('page.dve', '{{< layout}}{{#block title}}{{ title }}{{/block}}{{#block body}}{{#each xs}}{{> users/card}}{{/each}}{{/block}}{{/}}');
  await write('layout.dve', '<title>{{#slot title}}{{/slot}}</title><main>{{#slot body}}{{/slot}}</main>');
  await write('users/card.dve', '<p>{{ item }}</p>');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const data = { title: 'T<', xs: ['a', 'フ'] };
const page = '<title>T&lt;</title><main><p>a</p><p>フ</p></main>';

describe('views > filesystem loader on Node', () => {
  test('renders a directory of views, with or without the extension', async () => {
    const views = createViews({ dir });
    expect(await views.render('page', data)).toBe(page);
    expect(await views.render('page.dve', data)).toBe(page);
    expect(await views.render('users/card', { item: 'x' })).toBe('<p>x</p>');
  });

  test('caches compiled views: an edit is not seen until invalidate()', async () => {
    const views = createViews({ dir });
    await write('cached.dve', 'one');
    expect(await views.render('cached')).toBe('one');
    await write('cached.dve', 'two');
    expect(await views.render('cached')).toBe('one');
    expect(views.renderSync('cached')).toBe('one');
    views.invalidate();
    expect(await views.render('cached')).toBe('two');
  });

  test('in dev mode an edited file shows up on the next render, includes included', async () => {
    const views = createViews({ dir, dev: true });
    await write('dev.dve', 'A{{> dev-part}}');
    await write('dev-part.dve', 'b');
    expect(await views.render('dev')).toBe('Ab');
    await write('dev-part.dve', 'c');
    expect(await views.render('dev')).toBe('Ac');
    await write('dev.dve', 'A{{> dev-other}}{{> dev-part}}');
    await write('dev-other.dve', 'o');
    expect(await views.render('dev')).toBe('Aoc');
  });

  test('in dev mode a syntax error shows, then the fix shows', async () => {
    const views = createViews({ dir, dev: true });
    await write('dev-err.dve', '{{#if x}}');
    await expect(views.render('dev-err')).rejects.toMatchObject({ kind: 'syntax', view: 'dev-err.dve', line: 1, column: 1 });
    await write('dev-err.dve', '{{#if x}}fixed{{/if}}');
    expect(await views.render('dev-err', { x: 1 })).toBe('fixed');
  });

  test('a missing view or include is not-found; names cannot leave the directory', async () => {
    const views = createViews({ dir });
    await expect(views.render('nope')).rejects.toMatchObject({ kind: 'not-found' });
    await expect(views.render('../secret')).rejects.toMatchObject({ kind: 'not-found' });
    await expect(views.render('users/../../secret')).rejects.toMatchObject({ kind: 'not-found' });
    await expect(views.render(join(root, 'secret.dve'))).rejects.toMatchObject({ kind: 'not-found' });
    // The loader itself refuses too, whatever it is asked.
    expect(await fileSource(dir).read('../secret.dve')).toBeUndefined();
  });

  test('preload() compiles every view and reports the first error', async () => {
    const good = await mkdtemp(join(root, 'pre-'));
    await writeFile(join(good, 'a.dve'), 'A{{> b}}');
    await writeFile(join(good, 'b.dve'), 'B');
    await writeFile(join(good, 'notes.txt'), '{{#if');
    const views = createViews({ dir: good });
    await views.preload();
    expect(views.renderSync('a')).toBe('AB');
    await writeFile(join(good, 'c.dve'), '{{/if}}');
    await expect(createViews({ dir: good }).preload()).rejects.toBeInstanceOf(ViewError);
  });

  test('renderSync needs a loaded view with a file loader', () => {
    expect(() => createViews({ dir }).renderSync('page', data)).toThrow(/not loaded yet/);
  });

  test('the core engine without the loader explains how to get one', () => {
    expect(() => createCoreViews({ dir })).toThrow(/filesystem loader/);
  });
});

describe('views > build:views writes a module of pre-parsed views', () => {
  test('the module renders exactly as the directory does', async () => {
    const out = join(root, 'gen/views.gen.ts');
    expect(await buildViews(dir, out)).toBeGreaterThan(3);
    const compiled = (await import(pathToFileURL(out).href)).default;
    const fromModule = createCoreViews({ compiled });
    expect(fromModule.renderSync('page', data)).toBe(page);
    expect(await fromModule.render('page', data)).toBe(page);
  });

  test('every syntax case survives the round trip through JSON', async () => {
    for (const c of cases) {
      const templates = { ...c.others, 'main.dve': c.view };
      const compiled = JSON.parse(JSON.stringify(precompile(templates)));
      const d = typeof c.data === 'function' ? (c.data as () => unknown)() : c.data;
      expect(await createCoreViews({ compiled, filters: c.filters, locale: c.locale }).render('main', d), c.name).toBe(c.out);
    }
  });

  test('a broken view or a missing include fails the build', () => {
    expect(() => precompile({ 'a.dve': '{{#if}}' })).toThrow(ViewError);
    expect(() => precompile({ 'a.dve': '{{> missing}}' })).toThrow(/no view named missing/);
    expect(() => precompile({ 'a.dve': '{{< b}}{{#block x}}{{/block}}{{/}}', 'b.dve': '' })).toThrow(/names no slot/);
  });

  test('a module of another format is refused', () => {
    expect(() => createCoreViews({ compiled: { format: 'other', version: 1, views: {} } })).toThrow(TypeError);
  });

  test('the hello example page renders the same from its directory and from its module', async () => {
    const { default: compiled } = await import('../../examples/hello/views.gen.ts');
    const data = { title: 'Hello <Rove>', items: [{ name: 'Node' }, { name: 'Deno & Bun' }] };
    const expected =
      '<!DOCTYPE html>\n<html>\n<head><title>Hello &lt;Rove&gt;</title></head>\n<body>\n<h1>Hello &lt;Rove&gt;</h1>\n<ul>\n' +
      '<li class="first">1. Node</li>\n<li>2. Deno &amp; Bun</li>\n</ul>\n</body>\n</html>\n';
    expect(await createViews({ dir: join(repo, 'examples/hello/views') }).render('page', data)).toBe(expected);
    expect(await createCoreViews({ compiled }).render('page', data)).toBe(expected);
    expect(await createCoreViews({ compiled }).render('page', { title: 'T', items: [] })).toContain('</ul>\n<p>Nothing yet.</p>\n</body>');
  });

  test('examples/hello/views.gen.ts is up to date', async () => {
    const out = join(root, 'hello.gen.ts');
    const cwd = process.cwd();
    process.chdir(repo);
    try {
      await buildViews('examples/hello/views', out);
    } finally {
      process.chdir(cwd);
    }
    expect(await readFile(out, 'utf8')).toBe(await readFile(join(repo, 'examples/hello/views.gen.ts'), 'utf8'));
  });
});

describe('views > runtimes', () => {
  // Each run renders the whole syntax table and exercises the file loader.
  const check = async (cmd: string, args: string[]) => {
    const { stdout } = await run(cmd, args, { cwd: repo, env: { ...process.env, NO_COLOR: '1' } });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    const expected = cases.map((c) => [c.name, c.out]);
    expect(result.cases).toEqual(expected);
    const p = '<main><i>1</i><i>フ</i></main>';
    const edited = '<main><b>1</b><b>フ</b></main>';
    const listed = 'layout.dve page.dve parts/item.dve';
    expect(result.fs).toEqual({ first: p, devFirst: p, devEdited: edited, cachedAfterEdit: p, streamed: p, traversal: 'not-found', listed, byUrl: edited });
    return result as { runtime: string; codegen: string };
  };

  test('node --disallow-code-generation-from-strings renders every case: no eval, no new Function', async () => {
    const r = await check(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', 'test/views/runtime-check.ts']);
    expect(r).toMatchObject({ runtime: 'node', codegen: 'blocked' });
  });

  test('deno (with code generation disallowed too) renders every case and reads files', async () => {
    const r = await check(bin('deno'), ['run', '-A', '--v8-flags=--disallow-code-generation-from-strings', 'test/views/runtime-check.ts']);
    expect(r).toMatchObject({ runtime: 'deno', codegen: 'blocked' });
  });

  test('bun renders every case and reads files', async () => {
    const r = await check(bin('bun'), ['test/views/runtime-check.ts']);
    expect(r.runtime).toBe('bun');
  });

  test('a Workers bundle of rove/views has no node: import and renders', async () => {
    const result = await build({
      stdin: { contents: "export { createViews } from 'rove/views';", resolveDir: repo, loader: 'ts' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile!.inputs);
    expect(inputs).toContain('src/views/index.ts');
    expect(inputs.some((i) => i.startsWith('adapters/'))).toBe(false);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/["']node:|\brequire\(/);
    const file = join(root, 'worker-bundle.mjs');
    await writeFile(file, code);
    const mod = await import(pathToFileURL(file).href);
    expect(mod.createViews({ templates: { 'a.dve': 'Hi {{ x }}' } }).renderSync('a', { x: '<' })).toBe('Hi &lt;');
  });
});
