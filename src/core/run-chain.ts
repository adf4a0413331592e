/**
 * Running a route's chain: what it returns or throws becomes the response the entry sends,
 * and an error goes to the app's error responder.
 */

import type { Chain } from './app-table.ts';
import type { ErrorResponder } from './compose.ts';
import { type Context, state } from './context.ts';
import type { Entry } from './entry.ts';
import { logEscaped } from './error-log.ts';
import { internalError } from './problem.ts';
import { withHeaders } from './response.ts';

/** Run a chain and turn what it returns or throws into the response. */
export function runChain(entry: Entry, c: Context<any, any>, chain: Chain, onError: ErrorResponder): Response | Promise<Response> {
  let out: unknown;
  try {
    out = chain(c);
  } catch (error) {
    return fail(entry, error, c, onError);
  }
  if (out instanceof Promise) {
    return out.then(
      (value) => settle(entry, c, value, onError),
      (error) => fail(entry, error, c, onError),
    );
  }
  return settle(entry, c, out, onError);
}

function settle(entry: Entry, c: Context<any, any>, value: unknown, onError: ErrorResponder): Response | Promise<Response> {
  try {
    return finish(entry, c, value);
  } catch (error) {
    return fail(entry, error, c, onError);
  }
}

/** The response a chain ended with, with the headers set through `c.header()`, as the entry sends it. */
function finish(entry: Entry, c: Context<any, any>, value: unknown): Response {
  const res = (value ?? state.res(c)) as Response | undefined;
  // Nothing, or something else: one message for both.
  if (!(res instanceof Response)) throw new TypeError('A handler must return a Response');
  // A helper's response carries the headers set through c.header() already.
  const pending = res === state.made(c) ? null : state.pendingHeaders(c);
  const out = pending === null ? res : withHeaders(res, pending);
  return entry.finish === undefined ? out : entry.finish(out, c);
}

function fail(entry: Entry, error: unknown, c: Context<any, any>, onError: ErrorResponder): Promise<Response> {
  c.error = error;
  return Promise.resolve()
    .then(() => onError(error, c))
    .then((res) => finish(entry, c, res))
    .catch((again) => {
      // The error answer itself failed (a broken onError, a response the runtime cannot send).
      logEscaped(again, c);
      return internalError(entry.dev ? error : undefined);
    });
}
