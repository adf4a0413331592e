// The package's entry points, read from package.json, so every test of the packed package
// and of deno.json covers a new subpath as soon as its export line is added.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PackageExport {
  /** `.` or `./node`. */
  key: string;
  /** What users import: `rove` or `rove/node`. */
  specifier: string;
  /** The TypeScript source Deno runs (the `.ts` of its `deno` condition's build), `./src/index.ts`: what JSR publishes. */
  source: string;
  /** The export's conditions; a nested one (`{ types, default }`) as its `default`, its types as `<name>.types`. */
  conditions: Record<string, string>;
}

type Condition = string | { types: string; default: string };

export function packageExports(root: string): PackageExport[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, Record<string, Condition>> };
  return Object.entries(pkg.exports).map(([key, nested]) => {
    const conditions = Object.fromEntries(
      Object.entries(nested).flatMap(([k, v]) =>
        typeof v === 'string'
          ? [[k, v]]
          : [
              [k, v.default],
              [`${k}.types`, v.types],
            ],
      ),
    );
    return {
      key,
      specifier: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`,
      // `deno` points at the build (Deno strips no types under node_modules); JSR takes its source.
      source: conditions.deno?.startsWith('./dist/') ? `./${conditions.deno.slice('./dist/'.length, -'.js'.length)}.ts` : conditions.source,
      conditions,
    };
  });
}
