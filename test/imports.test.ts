import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative module a file names: imports, type imports and re-exports alike. */
function edges(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) out.push(resolve(dirname(file), m[1]));
  for (const m of text.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm)) out.push(resolve(dirname(file), m[1]));
  return out;
}

function cycles(all: string[]): string[][] {
  const graph = new Map(all.map((f) => [f, edges(f).filter((t) => graph_has(all, t))]));
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const t of graph.get(f) ?? []) {
      if (state.get(t) === 'open') found.push([...stack.slice(stack.indexOf(t)), t].map((p) => relative(ROOT, p)));
      else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of all) if (!state.has(f)) visit(f);
  return found;
}

function graph_has(all: string[], target: string): boolean {
  return all.includes(target);
}

describe('module structure', () => {
  it('src/ and adapters/ have no import cycles, type imports included', () => {
    const all = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'adapters'))];
    expect(cycles(all)).toEqual([]);
  });

  it('every middleware folder is an index.ts of re-exports beside the code it names', () => {
    const dir = join(ROOT, 'src/middleware');
    for (const name of readdirSync(dir)) {
      const index = join(dir, name, 'index.ts');
      const code = readFileSync(index, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+'(\.\.?\/)+[^']+\.ts';/g, '');
      expect(code.trim(), `src/middleware/${name}/index.ts`).toBe('');
      expect(readdirSync(join(dir, name)).length, `src/middleware/${name}/`).toBeGreaterThan(1);
    }
  });

  it('the dev helpers (dev/) are the one place test/ and bench/ share: dev/ imports neither, bench/ no test, and only test/bench/ the bench', () => {
    const leaning = (dirs: string[], forbidden: (target: string) => boolean) =>
      dirs
        .flatMap((d) => files(join(ROOT, d)))
        .flatMap((f) =>
          edges(f)
            .filter(forbidden)
            .map((t) => `${relative(ROOT, f)} -> ${relative(ROOT, t)}`),
        );
    const under = (dir: string) => (target: string) => relative(ROOT, target).startsWith(`${dir}/`);
    expect(leaning(['dev'], (t) => under('test')(t) || under('bench')(t))).toEqual([]);
    expect(leaning(['bench'], under('test'))).toEqual([]);
    const tests = files(join(ROOT, 'test')).filter((f) => !relative(ROOT, f).startsWith('test/bench/'));
    const intoBench = tests.flatMap((f) =>
      edges(f)
        .filter(under('bench'))
        .map((t) => `${relative(ROOT, f)} -> ${relative(ROOT, t)}`),
    );
    expect(intoBench).toEqual([]);
  });
});
