// One rule for every option that names a place on disk (views `dir`, a routes directory, …):
// a `URL` or a `file:` string (what `new URL('./views', import.meta.url)` gives) or a path,
// relative to the working directory. node:path and node:url work on Node, Deno and Bun.
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The absolute file-system path of `place`.
 *
 * @example
 * toFsPath(new URL('./views/', import.meta.url)); // '/app/src/views'
 * toFsPath('file:///app/views');                   // '/app/views'
 * toFsPath('views');                               // '<cwd>/views'
 */
export function toFsPath(place: string | URL): string {
  if (place instanceof URL) {
    if (place.protocol !== 'file:') throw new TypeError(`Expected a file: URL or a path, got ${place.href}`);
    return fileURLToPath(place);
  }
  if (typeof place !== 'string') throw new TypeError(`Expected a path or a file: URL, got ${typeof place}`);
  if (place.startsWith('file:')) return fileURLToPath(place);
  return isAbsolute(place) ? place : resolve(place);
}
