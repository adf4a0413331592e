// File routes: the conventions, the route table, the manifest format and writer,
// and the loader interface the file-system scanner (adapters/shared/fs-routes.ts) implements.
export { classifyRouteFile, FileRouteError, MIDDLEWARE_NAME, ROUTE_EXTENSIONS, type RouteFile } from './conventions.ts';
export { fileRoutes } from './file-routes.ts';
export { type ListedFile, loaderForDirectory, type RouteLoader, setDirectoryLoader } from './loader.ts';
export { isRouteManifest, MANIFEST_FORMAT, MANIFEST_VERSION, type ManifestSource, manifestEntries, type RouteManifest, writeManifest } from './manifest.ts';
export { type FileRoutesOptions, mountFileRoutes, type RouteLoadError } from './mount.ts';
export {
  buildRouteTable,
  checkRouteModule,
  describeRouteTable,
  type FileMiddleware,
  type FileRoute,
  middlewareHandlers,
  planRoutes,
  type RouteModule,
  type RouteModuleEntry,
  type RouteTable,
  routeHandlers,
} from './table.ts';
