import type { Context } from './context.ts';

export type Next = () => Promise<void>;

/**
 * A middleware or handler. A handler returns a Response; a middleware awaits `next()` and may return one.
 * `K`: the route's param keys when known (`ParamKeys<'/users/:id'>`), so `c.req.param()` is typed; any name by default.
 */
export type Handler<E extends object = any, I = any, K extends string = string> = (c: Context<E, I, K>, next: Next) => unknown;

export type ErrorResponder = (error: unknown, c: Context<any, any>) => Response | Promise<Response>;

const resolved = Promise.resolve();
const noNext: Next = () => resolved;

/**
 * What `next()` returns when everything after the caller finished synchronously. A middleware
 * continuing inside a `.then` callback can answer `undefined` for it instead of returning it:
 * a promise returned from a callback is adopted, which costs two more microtask turns.
 */
export const NEXT_DONE: Promise<void> = resolved;

/**
 * Compose a route's middleware and handlers once, at registration. The result
 * runs the onion and returns a promise that settles when it is done, or nothing
 * when every layer finished synchronously; the response it ended with is in the
 * context, or what the promise resolves with (the app reads both, as the
 * response of a single handler, and answers a rejection with `onError`). A single handler is called directly: its
 * return value is the response, and no promise is made unless it makes one.
 * A middleware that works only before the handler can skip the promise hops:
 * `(c, next) => { c.set('id', id); return next(); }` is as cheap as a function call.
 * An error at any layer becomes that layer's response (through `onError`), so
 * outer middleware see it in `c.res` after `next()`.
 */
export function compose(fns: Handler[], onError: ErrorResponder): (c: Context<any, any>) => unknown {
  if (fns.length === 1) {
    const only = fns[0];
    return (c) => only(c, noNext);
  }
  return (c) => {
    let called = -1;
    // One pair of callbacks per request, shared by every layer that returns a promise of its own,
    // and made only when one does: a chain of `return next()` layers allocates neither.
    let keep: ((value: unknown) => void) | undefined;
    let fail: ((error: unknown) => Promise<void>) | undefined;
    const dispatch = (i: number): Promise<void> => {
      if (i <= called) return Promise.reject(new Error('next() called multiple times'));
      called = i;
      const fn = fns[i];
      if (fn === undefined) return resolved;
      let inner: Promise<void> | undefined;
      let out: unknown;
      try {
        out = fn(c, () => (inner = dispatch(i + 1)));
      } catch (error) {
        return settle(c, error, onError);
      }
      if (out instanceof Promise) {
        // A synchronous middleware that returns next()'s own promise adds no hop: that promise
        // settles with nothing to keep (each inner layer keeps its own response and handles its
        // own errors; only a second next() call rejects it, and that reaches the layer outside).
        if (out === inner) return out;
        // The outermost layer's own promise goes to the app as it is: the app reads a response it
        // resolves with, and turns a rejection into onError's answer, as keep and fail would.
        if (i === 0) return out as Promise<void>;
        keep ??= (value) => {
          if (value !== undefined) c.res = value as Response;
        };
        fail ??= (error) => settle(c, error, onError);
        return out.then(keep, fail);
      }
      if (out !== undefined) c.res = out as Response;
      return resolved;
    };
    // When every layer finished synchronously the onion is done now: no promise for the app to wait on.
    const done = dispatch(0);
    return done === resolved ? undefined : done;
  };
}

async function settle(c: Context<any, any>, error: unknown, onError: ErrorResponder): Promise<void> {
  c.error = error;
  c.res = await onError(error, c);
}
