// The rules that keep the surface honest, checked on the source: nothing patches a public class
// when it is imported, and nothing outside the core's own few files reaches into a context's state
// or learns what an adapter bound (its response factory, header lookup or last check).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
  });
}

const SRC = files(join(ROOT, 'src')).map((f) => ({ path: relative(ROOT, f).replaceAll('\\', '/'), text: readFileSync(f, 'utf8') }));

// The core files that own a context's state: the app (app.ts, with the entry it builds and the
// running of a chain split out of it), the onion, and the core's own validate() and bodyLimit().
const STATE_OWNERS = new Set([
  'src/core/app.ts',
  'src/core/entry.ts',
  'src/core/run-chain.ts',
  'src/core/context.ts',
  'src/core/compose.ts',
  'src/core/validate.ts',
  'src/middleware/body-limit/body-limit.ts',
]);

describe('an honest surface', () => {
  it('no module patches App, Context, RoveRequest or EventBus', () => {
    const patching = /\b(App|Context|RoveRequest|EventBus)\.prototype\b/;
    expect(SRC.filter((f) => patching.test(f.text)).map((f) => f.path)).toEqual([]);
  });

  it("only the core's own files reach into a context's state", () => {
    const reaching = SRC.filter((f) => !STATE_OWNERS.has(f.path) && /\bimport\s*\{[^}]*\bstate\b[^}]*\}\s*from\s*'[./]*context\.ts'/.test(f.text));
    expect(reaching.map((f) => f.path)).toEqual([]);
  });

  it('middleware and features never read what an adapter bound', () => {
    // `respond`, `header` and `finish` are the binding's; only the app and the context hold them.
    const binding = /\.(respond|finish)\b|config\(\s*c\s*\)|markChecked|isChecked/;
    const readers = SRC.filter((f) => !STATE_OWNERS.has(f.path) && f.path !== 'src/core/app-types.ts' && binding.test(f.text));
    expect(readers.map((f) => f.path)).toEqual([]);
  });
});
