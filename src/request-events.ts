/**
 * rove/request-events: `request:complete`, `request:error` and `body:rejected`.
 * Loading this module teaches every app's event bus to time requests and report
 * them; `app.on('request:complete', …)` asks for it (and says so when it is missing).
 * rove/logger and rove/otel load it themselves. Apps that never listen to requests
 * do not carry this code.
 *
 * @example
 * import 'rove/request-events';
 * app.on('request:complete', (e) => console.log(e.metadata.status, e.metadata.path));
 */

import './app-events.ts';
import { BodyError } from './errors.ts';
import type { BodyRejectedMetadata } from './event-map.ts';
import { EventBus, type RequestObserver, requestHooks } from './events.ts';

export { REQUEST_EVENT_KINDS } from './events.ts';

/**
 * Run one request while someone listens: time it and report how it ended.
 * The app calls this only when `bus.observing` is true.
 */
const observeRequest: RequestObserver = (bus, request, c, route, run) => {
  const start = performance.now();
  // Plain fields are set at once; the rest are read from the request only when a listener reads them.
  const report = (result: Response | undefined, thrown: unknown): void => {
    const end = performance.now();
    const error = thrown !== undefined ? thrown : c.error;
    const header = (name: string): string | undefined => {
      try {
        return request.headers.get(name) ?? undefined;
      } catch {
        return undefined;
      }
    };
    const info = {
      method: request.method,
      path: c.path,
      route,
      status: result === undefined ? 500 : result.status,
      durationMs: end - start,
      error,
      reason: undefined as BodyRejectedMetadata['reason'] | undefined,
      header,
      get requestSize() {
        const length = header('content-length');
        return length === undefined ? undefined : Number(length);
      },
      get responseSize() {
        if (result === undefined) return undefined;
        const length = result.headers.get('content-length');
        return length !== null ? Number(length) : result.body === null ? 0 : undefined;
      },
      get userAgent() {
        return header('user-agent');
      },
      get clientAddress() {
        try {
          return c.req.ip;
        } catch {
          return undefined;
        }
      },
      // The getters are own properties, so spreading reads them; JSON drops the functions and the undefined.
      toJSON: () => ({
        ...info,
        error: error === undefined ? undefined : error instanceof Error ? { name: error.name, message: error.message } : String(error),
      }),
    };
    // The end time as an epoch timestamp without a second clock read (workerd: origin 0, now() is epoch time).
    bus.request(info, TIME_ORIGIN + end, c.executionCtx);
  };
  let out: Response | Promise<Response>;
  try {
    out = run();
  } catch (error) {
    report(undefined, error);
    throw error;
  }
  if (!(out instanceof Promise)) {
    report(out, undefined);
    return out;
  }
  return out.then(
    (result) => {
      report(result, undefined);
      return result;
    },
    (error) => {
      report(undefined, error);
      throw error;
    },
  );
};

const TIME_ORIGIN = performance.timeOrigin;

if (requestHooks.observe === undefined) {
  requestHooks.observe = observeRequest;
  // A method, so one report per request is one call (the cost tests count them).
  EventBus.prototype.request = function (this: EventBus, info, timestamp, ctx) {
    this.emit('request:complete', info, ctx, timestamp);
    if (info.status < 400 && info.error === undefined) return;
    this.emit('request:error', info, ctx, timestamp);
    // The body readers and validate() throw BodyErrors.
    if (info.error instanceof BodyError && this.has('body:rejected')) {
      info.reason = info.error.reason;
      this.emit('body:rejected', info as BodyRejectedMetadata, ctx, timestamp);
    }
  };
}
