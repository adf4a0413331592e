// docs/design.md describes the code: the files it names exist, the private methods it names are
// in the files it names beside them, the adapter contract it shows is the code's, and each entry
// in its table exports what the table says it holds.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { EXPORTS } from '../../scripts/exports-table.ts';

const ROOT = join(import.meta.dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/design.md'), 'utf8');
const TOP = ['src', 'adapters', 'test', 'bench', 'dev', 'scripts', 'examples', 'docs', 'create-rove', 'types'];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const PACKAGES = new Set(Object.keys(JSON.parse(read('package.json')).dependencies));

/** The doc's text outside fenced code blocks, and the blocks themselves. */
const FENCES = [...DOC.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
const PROSE = DOC.replace(/^```\w*\n[\s\S]*?^```$/gm, '');
/** Paragraphs and list items: what one sentence's file names cover. */
const PARAGRAPHS = PROSE.split(/\n\s*\n|\n(?=\s*(?:-|\d+\.) )/);

/** Repository paths written in backticks. */
function pathsIn(text: string): string[] {
  return [...text.matchAll(/`([\w.-]+\/[\w./-]*)`/g)].map((m) => m[1]).filter((p) => TOP.includes(p.split('/')[0]));
}

/** The files and folders the layout tree names, each with its full path. */
function layoutPaths(tree: string): string[] {
  const out: string[] = [];
  const dirs: string[] = [];
  for (const line of tree.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (line.trim() === '' || indent >= 20) continue; // a description's continuation
    const [names] = line.trim().split(/\s{2,}/);
    const depth = indent / 2;
    dirs.length = depth;
    const parent = dirs.join('');
    for (const name of names.split(/,?\s+/).filter((n) => /^[\w.-]+\/?$/.test(n))) out.push(parent + name);
    const dir = names.split(/\s+/)[0];
    if (dir.endsWith('/') && names.trim().split(/\s+/).length === 1) dirs[depth] = dir;
  }
  return out;
}

/** `x.ts` names in the descriptions of the layout's adapters/ folders, with their folder. */
function adapterFiles(tree: string): string[] {
  const out: string[] = [];
  let folder: string | null = null;
  for (const line of tree.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (indent === 0) folder = null;
    const head = /^ {2}([\w-]+\/)\s+(.*)$/.exec(line);
    let text = line;
    if (head && indent === 2) {
      folder =
        line.startsWith('  ') && tree.slice(0, tree.indexOf(line)).lastIndexOf('\nadapters/') > tree.slice(0, tree.indexOf(line)).lastIndexOf('\nexamples/')
          ? `adapters/${head[1]}`
          : null;
      text = head[2];
    } else if (indent < 20) continue;
    if (folder === null || !folder.startsWith('adapters/')) continue;
    for (const m of text.matchAll(/(?<![\w/])([\w-]+(?:\/[\w-]+)*\.ts)\b/g)) out.push(folder + m[1]);
  }
  return out;
}

/** Member names of `interface name { … }` or `class name { … }` in TypeScript text. */
function members(text: string, kind: 'interface' | 'class', name: string): string[] {
  const start = text.indexOf(`${kind} ${name}`);
  if (start === -1) throw new Error(`no ${kind} ${name}`);
  const body = text.slice(text.indexOf('{', start) + 1);
  const end = body.search(/^\}/m);
  return [...body.slice(0, end).matchAll(/^ {2}(?:readonly )?(?:get )?(\w+)\??\s*[(:<=]/gm)].map((m) => m[1]).sort();
}

/** The names each package entry exports, read by the TypeScript checker from its source. */
function entryExports(): Map<string, Set<string>> {
  const files = EXPORTS.map((e) => join(ROOT, e.source));
  const program = ts.createProgram(files, {
    allowImportingTsExtensions: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, Set<string>>();
  for (const e of EXPORTS) {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(join(ROOT, e.source))!)!;
    out.set(e.subpath === '.' ? 'rove' : `rove/${e.subpath.slice(2)}`, new Set(checker.getExportsOfModule(symbol).map((s) => s.name)));
  }
  return out;
}

describe('docs/design.md', () => {
  it('names only files and folders that exist', () => {
    const named = [...pathsIn(PROSE), ...FENCES.flatMap(pathsIn)];
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('lays out files and folders that exist', () => {
    const tree = FENCES.find((f) => f.startsWith('src/'))!;
    const named = [...layoutPaths(tree), ...adapterFiles(tree)];
    expect(named.length).toBeGreaterThan(80);
    expect(named.filter((p) => !existsSync(join(ROOT, p.replace(/\/$/, ''))))).toEqual([]);
  });

  it('names private methods only beside a file that has them', () => {
    const missing: string[] = [];
    for (const text of PARAGRAPHS) {
      const files = pathsIn(text).filter((p) => p.endsWith('.ts'));
      for (const [, name] of text.matchAll(/`(#\w+)`/g)) {
        if (files.length === 0) missing.push(`${name}: no file named beside it`);
        else if (!files.some((f) => read(f).includes(`${name}(`))) missing.push(`${name} is in none of ${files.join(', ')}`);
      }
    }
    // The diagram's steps are App's.
    const diagram = FENCES.find((f) => f.startsWith('adapter ─►'))!;
    for (const [name] of diagram.matchAll(/#\w+/g)) if (!read('src/core/app.ts').includes(`${name}(`)) missing.push(`${name} (diagram)`);
    expect(missing).toEqual([]);
  });

  it('shows the adapter contract as the code has it', () => {
    const block = FENCES.find((f) => f.includes('interface ServerBinding'))!;
    expect(members(block, 'interface', 'ServerBinding')).toEqual(members(read('src/core/app-types.ts'), 'interface', 'ServerBinding'));
    const app = members(read('src/core/app.ts'), 'class', 'App');
    for (const method of members(block, 'class', 'App')) expect(app, `App.${method}`).toContain(method);
  });

  it('lists every package entry, and each holds what the table says', () => {
    const exported = entryExports();
    const table = PROSE.slice(PROSE.indexOf('| import | holds |'));
    const rows = table.split('\n').filter((l) => l.startsWith('| `rove'));
    const listed = new Set<string>();
    const wrong: string[] = [];
    for (const row of rows) {
      const [, imports, holds] = row.split(/(?<!\\)\|/).map((c) => c.trim());
      const entries = [...imports.matchAll(/`(rove(?:\/[\w/-]+)?)`/g)].map((m) => m[1]);
      for (const e of entries) listed.add(e);
      for (const [, code] of holds.matchAll(/`([^`]+)`/g)) {
        // Usage (`new App({ … })`, `c.req.form()`, `serve(app, { … })`) and package names (`ws`) are not exports.
        const name = /^([A-Za-z_]\w*)/.exec(code)?.[1];
        if (name === undefined || code.startsWith('new ') || code.includes('(app') || /^[a-z]\w*\./.test(code) || PACKAGES.has(name)) continue;
        const own = entries.some((e) => exported.get(e)?.has(name));
        if (!own) wrong.push(`${entries.join(', ')}: ${name}`);
      }
    }
    expect(wrong).toEqual([]);
    expect([...exported.keys()].filter((e) => !listed.has(e))).toEqual([]);
  });
});
