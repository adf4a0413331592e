// The event kinds and their metadata, apart from the bus so that any module (the context too) can name them.

import type { ViewEvent } from '../views/renderer.ts';
import type { BodyRejection, HttpError } from './errors.ts';

type ViewMetadata<K extends ViewEvent['kind']> = Extract<ViewEvent, { kind: K }>['metadata'];

/** What every request event carries. Costly fields are read only when a listener reads them. */
export interface RequestMetadata {
  readonly method: string;
  /** The pathname as sent (not percent-decoded). */
  readonly path: string;
  /** The matched route pattern (`/users/:id`), or null when no route matched (404, 405, 414…). */
  readonly route: string | null;
  readonly status: number;
  /** From routing done to response ready; the adapter's write is not included. Frozen clocks on Workers make CPU-only work read 0. */
  readonly durationMs: number;
  /** What a handler or middleware threw, when one did (also for errors the error handler turned into a response). */
  readonly error: unknown;
  /** The request's Content-Length, when it sent one. */
  readonly requestSize: number | undefined;
  /** The response body's size in bytes, when known before it is sent (not for streams without Content-Length). */
  readonly responseSize: number | undefined;
  readonly userAgent: string | undefined;
  /** The same value as `c.req.ip`: the client's address where the runtime gives it, after the app's trustProxy rule. */
  readonly clientAddress: string | undefined;
  /** Any request header. */
  header(name: string): string | undefined;
}

/** A body the app refused: too large (413), unreadable (400) or of the wrong type (415). */
export interface BodyRejectedMetadata extends RequestMetadata {
  readonly reason: BodyRejection;
  readonly error: HttpError;
}

/**
 * Every event kind and its metadata. Features that add events extend this
 * interface (declaration merging), naming kinds `area:what-happened`.
 */
export interface EventMap {
  'server:listening': { runtime: string; hostname: string; port: number; url: string };
  'server:shutdown': { runtime: string };
  'request:complete': RequestMetadata;
  /** Status >= 400, or something was thrown. */
  'request:error': RequestMetadata;
  'body:rejected': BodyRejectedMetadata;
  /** A route module failed to load (file routes). */
  'route:error': { route?: string; file?: string; error: unknown };
  /** Views (`new App({ views })`): the view's name and the time taken, in ms. */
  'view:compiled': ViewMetadata<'view:compiled'>;
  'view:rendered': ViewMetadata<'view:rendered'>;
  /** The view's name and position; `message` never holds data values. */
  'view:error': ViewMetadata<'view:error'>;
  'thread:timeout': { pool: string; threadId: number; taskId: number; task: string; timeoutMs: number };
  'thread:crash': { pool: string; threadId: number; taskId: number | undefined; task: string | undefined; error: unknown; exitCode: number | undefined };
  'thread:respawn': { pool: string; threadId: number; replaces: number; reason: 'timeout' | 'crash' };
  'thread:rejected': { pool: string; task: string; reason: 'queue-full' | 'no-threads' | 'closed'; queued: number; maxQueue: number };
  // tasks (rove/tasks)
  /** A scheduled task began: its name, schedule and the minute it was scheduled for (epoch ms). */
  'task:start': TaskMetadata;
  'task:complete': TaskMetadata & { durationMs: number };
  /** The task threw or rejected; the error went to the list's onError, or the log. */
  'task:error': TaskMetadata & { durationMs: number; error: unknown };
  /** A tick not run here: another process holds its lock, or the lock store failed (`error`). */
  'task:skipped': TaskMetadata & { reason: 'locked' | 'lock-failed'; error: unknown };
  /** An unhandled rejection or uncaught exception, seen by an adapter. */
  'process:error': { runtime: string; source: 'unhandledRejection' | 'uncaughtException'; error: unknown };
  // The middleware of the package's own subpaths (declared here: JSR publishes no module augmentation).
  // sse (rove/sse)
  /** An SSE callback threw or rejected; the stream was ended. */
  'sse:error': { path: string; error: unknown };
  // auth (rove/auth)
  /** basicAuth(), bearerAuth() or jwt() answered 401. Carries no credentials. */
  'auth:failed': { scheme: 'basic' | 'bearer'; reason: AuthFailure; method: string; path: string };
  // static (rove/static)
  /** serveStatic refused a path that tried to leave its root or named a hidden file; the answer was 404. */
  'static:rejected': { path: string; reason: string };
  // ip (rove/ip)
  /** ipRestriction() refused a request with 403. */
  'ip:rejected': { rule: IpRule; ip: string | undefined; method: string; path: string };
  // session (rove/session)
  /** A new session was saved: a first visit, or `regenerate()` (`reason`). Carries no id or data. */
  'session:created': { store: 'cookie' | 'server'; reason: 'new' | 'regenerated'; path: string };
  /** `destroy()` ended a session. */
  'session:destroyed': { store: 'cookie' | 'server'; path: string };
  // websocket (rove/websocket)
  /** A socket opened on `path` (the request path of the upgrade). */
  'ws:open': { path: string; protocol: string };
  /** A socket closed: 1000 normal, 1001 going away, 1005 no code, 1006 dropped, 1009 message too big… */
  'ws:close': { path: string; code: number; reason: string };
  /** A handler threw or rejected, or the runtime reported a socket error. */
  'ws:error': { path: string; error: unknown };
  /** An upgrade refused before it happened: not an upgrade (426), a bad handshake (400, 426) or a foreign origin (403). */
  'ws:rejected': { path: string; reason: 'not-upgrade' | 'handshake' | 'origin'; origin: string | undefined };
  // cors (rove/cors)
  /** cors() refused an origin, or a preflight's method or headers. The answer carries no Access-Control-Allow-Origin. */
  'cors:rejected': { rule: CorsRule; origin: string; method: string; path: string; preflight: boolean };
  // csrf (rove/csrf)
  /** csrf() refused an unsafe request with 403. `origin` is the Origin header as sent, when there was one. */
  'csrf:rejected': { rule: CsrfRule; method: string; path: string; origin: string | undefined };
}

export type EventKind = keyof EventMap;

/** One event. A discriminated union on `kind`, so `metadata` is typed once `kind` is checked. */
export type RoveEvent<K extends EventKind = EventKind> = {
  [P in K]: { readonly kind: P /** Epoch milliseconds. */; readonly timestamp: number; readonly metadata: EventMap[P] };
}[K];

/** A listener may return a promise: it is caught, and kept alive with `waitUntil` on Workers. */
// biome-ignore lint/suspicious/noConfusingVoidType: a listener may return nothing, or a promise to keep alive
export type Listener<K extends EventKind = EventKind> = (event: RoveEvent<K>) => void | Promise<unknown>;

/** What every task event carries. */
export interface TaskMetadata {
  readonly name: string;
  readonly cron: string;
  readonly scheduledTime: number;
}

/** Which rule refused a request, in the events of rove/auth, rove/ip, rove/cors and rove/csrf. */
export type AuthFailure = 'missing' | 'malformed' | 'invalid' | 'expired' | 'signature' | 'algorithm' | 'claim';

export type IpRule = 'deny' | 'allow' | 'unknown';

export type CorsRule = 'origin' | 'method' | 'headers';

export type CsrfRule = 'origin' | 'sec-fetch-site' | 'token-missing' | 'token-invalid';
