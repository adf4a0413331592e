// The core: the app, its context, routing, errors, events and validation.
// Optional features live on their own subpaths (rove/views, rove/threads, rove/fs-routes, rove/otel).
export { App, type ErrorHandler, type NotFoundHandler } from './core/app.ts';
export type { AppOptions, ProxyRule, RouteAdder, ServerBinding, TrailingSlashRule } from './core/app-types.ts';
export type { Handler, Next } from './core/compose.ts';
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
} from './core/context.ts';
export { BodyError, type BodyRejection, HttpError } from './core/errors.ts';
export { type BodyRejectedMetadata, EventBus, type EventKind, type EventMap, type Listener, type RequestMetadata, type RoveEvent } from './core/events.ts';
export { errorResponse, internalError } from './core/problem.ts';
export { type FormValue, type RequestLike, RoveRequest } from './core/request.ts';
export type { HeaderRecord } from './core/response.ts';
export { type StandardSchemaV1, type ValidationIssue, type ValidationTarget, validate } from './core/validate.ts';
// From the code itself, not the folder's index.ts: one module less for every app loaded from source.
export { bodyLimit } from './middleware/body-limit/body-limit.ts';
export type { ParamKeys, ParamName, PathParams } from './routing/path-params.ts';
export { type Match, type Params, RouteError, Router } from './routing/router.ts';
export type { RunOptions, ThreadRunner } from './threads/runner.ts';
export type { ViewEvent, ViewRenderer } from './views/renderer.ts';
