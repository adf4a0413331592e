import { type Context, internals } from './context.ts';

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
 * Compose a route's middleware and handlers once, at registration. The result
 * runs the onion and resolves with the response it ends with. A single handler is
 * called directly: its return value is the response, and no promise is made
 * unless it makes one. An error at any layer becomes that layer's response
 * (through `onError`), so outer middleware see it in `c.res` after `next()`.
 */
export function compose(fns: Handler[], onError: ErrorResponder): (c: Context<any, any>) => unknown {
  if (fns.length === 1) {
    const only = fns[0];
    return (c) => only(c, noNext);
  }
  return (c) => {
    let called = -1;
    const dispatch = (i: number): Promise<void> => {
      if (i <= called) return Promise.reject(new Error('next() called multiple times'));
      called = i;
      const fn = fns[i];
      if (fn === undefined) return resolved;
      let out: unknown;
      try {
        out = fn(c, () => dispatch(i + 1));
      } catch (error) {
        return settle(c, error, onError);
      }
      if (out instanceof Promise) {
        return out.then(
          (value) => {
            if (value !== undefined) internals.setRes(c, value as Response);
          },
          (error) => settle(c, error, onError),
        );
      }
      if (out !== undefined) internals.setRes(c, out as Response);
      return resolved;
    };
    return dispatch(0).then(() => internals.res(c));
  };
}

async function settle(c: Context<any, any>, error: unknown, onError: ErrorResponder): Promise<void> {
  c.error = error;
  internals.setRes(c, await onError(error, c));
}
