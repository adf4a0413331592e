import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|js|mjs)$/.test(name) ? [path] : [];
  });
}

// Runtime facts enter the core only through what an adapter passes in.
const FORBIDDEN = [
  /['"]node:/,
  /\bDeno\.[A-Za-z]/,
  /\bBun\.[A-Za-z]/,
  /\bprocess\./,
  /\brequire\(/,
  /\bHTMLRewriter\b/,
  /\bWebSocketPair\b/,
  /\bcaches\.default\b/,
];

describe('src/ uses Web Standards only', () => {
  it('no file under src/ mentions a runtime', () => {
    const offences: string[] = [];
    for (const file of files(join(ROOT, 'src'))) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/^\s*(\/\/|\*)/.test(line)) return;
        for (const re of FORBIDDEN) if (re.test(line)) offences.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offences).toEqual([]);
  });

  it('the core never generates code from strings', () => {
    for (const file of files(join(ROOT, 'src'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, relative(ROOT, file)).not.toMatch(/\bnew Function\s*\(|\beval\s*\(/);
    }
  });
});
