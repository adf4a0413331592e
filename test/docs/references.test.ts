// Users have the repository, not the notes it grew from: no file points at documents outside it
// (BENCH.md, VIEWS.md, CONTRACT.md, DESIGN.md) or at work-item numbers; each says the fact or
// links inside docs/.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const OUTSIDE = /\b(?:BENCH|VIEWS|CONTRACT|DESIGN)\.md\b|\bshared\/seeds\b|\b[Ii]ssue #?\d+\b/;

it('no tracked file points at notes outside the repository or at work items', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|js|md|json|toml|http|sh)$/.test(f) && f !== 'test/docs/references.test.ts' && f !== 'CHANGELOG.md');
  const found = files.flatMap((f) =>
    readFileSync(join(ROOT, f), 'utf8')
      .split('\n')
      .flatMap((line, i) => (OUTSIDE.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
  );
  expect(found).toEqual([]);
});
