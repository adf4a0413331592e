// The core: the app, its context, routing, errors, events and validation.
// Optional features live on their own subpaths (rove/views, rove/threads, rove/fs-routes, rove/otel).
export { App, type ErrorHandler, type NotFoundHandler } from './app.ts';
export type { AppOptions, ProxyRule, RouteAdder, ServerBinding, TrailingSlashRule } from './app-types.ts';
export type { Handler, Next } from './compose.ts';
export {
  Context,
  type Env,
  type ExecutionContext,
  isSafeLocation,
  type RedirectStatus,
  type RenderOptions,
  type ResponseFactory,
  type StatusCode,
  type StreamWriter,
} from './context.ts';
export { BodyError, type BodyRejection, errorResponse, HttpError, internalError } from './errors.ts';
export { type BodyRejectedMetadata, EventBus, type EventKind, type EventMap, type Listener, type RequestMetadata, type RoveEvent } from './events.ts';
// From the code itself, not the folder's index.ts: one module less for every app loaded from source.
export { bodyLimit } from './middleware/body-limit/body-limit.ts';
export type { ParamKeys, ParamName, PathParams } from './path-params.ts';
export { type FormValue, type RequestLike, RoveRequest } from './request.ts';
export type { HeaderRecord } from './response.ts';
export { type Match, type Params, RouteError, Router } from './router.ts';
export type { RunOptions, ThreadRunner } from './threads/runner.ts';
export { type StandardSchemaV1, type ValidationIssue, type ValidationTarget, validate } from './validate.ts';
export type { ViewEvent, ViewRenderer } from './views/renderer.ts';
