// The part of a file source that Node and Deno share: where a name resolved (a real path
// inside the root, or nowhere) is remembered for a second, and both open() and stat() go
// through that memory before touching the file itself.
import { Recent } from './recent.ts';
import type { FileSource, FileStat, OpenResult } from './source.ts';

/**
 * A FileSource from a runtime's three steps: resolve a name to its real path inside the root
 * (null when it has none), open the file there, and stat it without opening.
 *
 * @example
 * const source = realPathSource(resolveInRoot, openReal, statReal);
 * await source.open('app.css');
 */
export function realPathSource(
  resolve: (rel: string) => Promise<string | null>,
  openReal: (real: string) => OpenResult | Promise<OpenResult>,
  statReal: (real: string) => FileStat | undefined | Promise<FileStat | undefined>,
): FileSource {
  const recent = new Recent<string | null>();
  // A remembered name answers without a promise of its own when the step does not make one.
  const at = <T>(rel: string, step: (real: string) => T | Promise<T>): T | undefined | Promise<T | undefined> => {
    const known = recent.get(rel);
    if (known !== undefined) return known === null ? undefined : step(known);
    return resolve(rel).then((real) => {
      recent.set(rel, real);
      return real === null ? undefined : step(real);
    });
  };
  return {
    open: (rel) => at(rel, openReal),
    // One lstat: what a revalidation needs, without opening the file.
    stat: (rel) => at(rel, statReal),
  };
}
