/**
 * npm run exports
 *
 * Rewrites package.json `exports` and deno.json `exports` and `imports` from the table in
 * scripts/exports-table.ts; every other field stays as it is. package.json is written as
 * JSON.stringify(…, null, 2), deno.json as Biome formats it (short arrays on one line).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { denoExports, denoImports, packageExports } from './exports-table.ts';

/** JSON with objects expanded and arrays of scalars on one line when they fit, as Biome prints it. */
export function formatJson(value: unknown, indent = '', lead = indent.length): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => formatJson(v, inner));
    const line = `[${items.join(', ')}]`;
    // `lead`: what precedes the array on its line; 1 for the comma after it (Biome's line width is 160).
    if (value.every((v) => v === null || typeof v !== 'object') && lead + line.length + 1 <= 160) return line;
    return `[\n${items.map((i) => inner + i).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner, inner.length + JSON.stringify(k).length + 2)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The two files' texts as the table makes them, from their current texts. */
export function generate(packageJson: string, denoJson: string): { packageJson: string; denoJson: string } {
  const pkg = JSON.parse(packageJson) as { name: string; exports?: unknown };
  pkg.exports = packageExports();
  const deno = JSON.parse(denoJson) as { exports?: unknown; imports?: unknown };
  deno.exports = denoExports();
  deno.imports = denoImports(pkg.name);
  return { packageJson: `${JSON.stringify(pkg, null, 2)}\n`, denoJson: `${formatJson(deno)}\n` };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(import.meta.dirname, '..');
  const files = { packageJson: join(root, 'package.json'), denoJson: join(root, 'deno.json') };
  const out = generate(readFileSync(files.packageJson, 'utf8'), readFileSync(files.denoJson, 'utf8'));
  for (const key of ['packageJson', 'denoJson'] as const) {
    if (readFileSync(files[key], 'utf8') === out[key]) continue;
    writeFileSync(files[key], out[key]);
    console.log(`wrote ${files[key]}`);
  }
}
