import { App } from '../core/app.ts';
import type { RouteLoader } from './loader.ts';
import type { RouteManifest } from './manifest.ts';
import { type FileRoutesOptions, mountFileRoutes } from './mount.ts';

/**
 * Mount file routes on an app: the manifest `npm run build:routes` writes
 * (registered at once, on every runtime), or a routes directory, scanned at
 * startup on Node, Deno and Bun and watched in dev (`rove/fs-routes` installs the scanner there).
 *
 * @example
 * import { fileRoutes } from 'rove/fs-routes';
 * await fileRoutes(app, new URL('./routes/', import.meta.url));
 */
export function fileRoutes<A extends App<any>>(app: A, source: RouteManifest, options?: { prefix?: string }): A;
export function fileRoutes<A extends App<any>>(app: A, source: string | URL | RouteLoader, options?: FileRoutesOptions): Promise<A>;
export function fileRoutes<A extends App<any>>(app: A, source: RouteManifest | string | URL | RouteLoader, options?: FileRoutesOptions): A | Promise<A> {
  return mountFileRoutes(app, () => new App(), source, options) as A | Promise<A>;
}
