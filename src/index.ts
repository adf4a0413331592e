export { App, type AppOptions, type ErrorHandler, type NotFoundHandler } from './app.ts';
export { Context, type Env, type ExecutionContext, type StreamWriter, type ViewRenderer } from './context.ts';
export type { Handler, Next } from './compose.ts';
export { BodyError, HttpError, errorResponse, type BodyRejection } from './errors.ts';
export { EventBus, type EventKind, type EventMap, type Listener, type RoveEvent, type RequestMetadata, type BodyRejectedMetadata } from './events.ts';
export {
  createWorkerPool,
  WorkerPool,
  type WorkerPoolOptions,
  type WorkerPoolStats,
  type WorkerRunner,
  type WorkerSpawner,
  type WorkerThread,
  type ThreadOptions,
  type RunOptions,
} from './workers/pool.ts';
export type { TaskModule } from './workers/protocol.ts';
export { Router, type Match, type Params, RouteError } from './router.ts';
export { RoveRequest, type RequestLike } from './request.ts';
export { LightResponse } from './response.ts';
export { validate, type StandardSchemaV1, type ValidationIssue, type ValidationTarget } from './validate.ts';
export { bodyLimit } from './body-limit.ts';
export { type CookieOptions } from './cookies.ts';
export {
  buildRouteTable,
  classifyRouteFile,
  describeRouteTable,
  FileRouteError,
  writeManifest,
  type FileRoutesOptions,
  type ListedFile,
  type RouteLoadError,
  type RouteLoader,
  type RouteManifest,
  type RouteTable,
} from './fs-routes/index.ts';
