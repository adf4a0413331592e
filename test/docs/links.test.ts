// The README, the changelog and docs/ link only inside the repository, to files that exist and to
// headings those files have (GitHub's anchors).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const PAGES = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = text
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

it('every link in the README, the changelog and docs/ reaches a file and a heading in the repository', () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^https?:/.test(target)) continue;
      const [file, hash] = target.split('#');
      const path = file === '' ? join(ROOT, page) : join(ROOT, dirname(page), file);
      if (relative(ROOT, path).startsWith('..')) broken.push(`${page}: ${target} leaves the repository`);
      else if (!existsSync(path)) broken.push(`${page}: ${target} (no such file)`);
      else if (hash !== undefined && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(hash))
        broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});
