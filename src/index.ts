// The core: the app, its context, routing, errors, events and validation.
// Optional features live on their own subpaths (rove/views, rove/workers, rove/fs-routes, rove/otel).
export { App, type ErrorHandler, type NotFoundHandler } from './app.ts';
export type { AppOptions, RouteAdder, ServerBinding } from './app-types.ts';
export {
  Context,
  isSafeLocation,
  type Env,
  type ExecutionContext,
  type RedirectStatus,
  type ResponseFactory,
  type StatusCode,
  type StreamWriter,
} from './context.ts';
export type { ViewRenderer, ViewEvent } from './views/renderer.ts';
export type { Handler, Next } from './compose.ts';
export { BodyError, HttpError, errorResponse, internalError, type BodyRejection } from './errors.ts';
export { EventBus, type EventKind, type EventMap, type Listener, type RoveEvent, type RequestMetadata, type BodyRejectedMetadata } from './events.ts';
export type { WorkerRunner, RunOptions } from './workers/runner.ts';
export { Router, type Match, type Params, RouteError } from './router.ts';
export { RoveRequest, type FormValue, type RequestLike } from './request.ts';
export type { HeaderRecord } from './response.ts';
export type { TrustProxy } from './client-ip.ts';
export { validate, type StandardSchemaV1, type ValidationIssue, type ValidationTarget } from './validate.ts';
export { bodyLimit } from './body-limit.ts';
export { type CookieOptions } from './cookies.ts';
