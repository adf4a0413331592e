// File routes: the conventions, the route table, the manifest format and writer,
// and the loader interface the file-system scanner (adapters/fs-routes.ts) implements.
export { classifyRouteFile, FileRouteError, MIDDLEWARE_NAME, ROUTE_EXTENSIONS, type RouteFile } from './conventions.ts';
export {
  buildRouteTable,
  checkRouteModule,
  describeRouteTable,
  middlewareHandlers,
  planRoutes,
  routeHandlers,
  type FileMiddleware,
  type FileRoute,
  type RouteModule,
  type RouteModuleEntry,
  type RouteTable,
} from './table.ts';
export { isRouteManifest, manifestEntries, MANIFEST_FORMAT, MANIFEST_VERSION, writeManifest, type ManifestSource, type RouteManifest } from './manifest.ts';
export { loaderForDirectory, setDirectoryLoader, type ListedFile, type RouteLoader } from './loader.ts';
export { mountFileRoutes, type FileRoutesOptions, type RouteLoadError } from './mount.ts';

export { fileRoutes } from './file-routes.ts';
