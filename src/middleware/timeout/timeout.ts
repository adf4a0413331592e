// timeout(): a deadline on the handler. At the deadline the client gets 504 and the signal that
// timeoutSignal(c) gives is aborted, so the handler's fetches, queries and loops can stop too.
import type { Handler } from '../../core/compose.ts';
import type { Context } from '../../core/context.ts';
import { leaveUnreported } from '../../core/error-log.ts';
import { HttpError } from '../../core/errors.ts';
import { named } from '../../core/named.ts';

/** The signals of requests under a timeout(), by context: no member is added to Context. */
const signals = new WeakMap<Context<any, any, any>, AbortSignal>();
/** What a request outside any timeout() gets: a signal that never aborts (made on first use: Workers refuse it at load). */
let never: AbortSignal | undefined;
/** setTimeout's largest delay (about 24.8 days); longer ones fire at once. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * Answer 504 Gateway Timeout (problem+json, through the app's error handler) when the rest of
 * the chain has not produced a response within `ms` milliseconds, and abort the signal that
 * `timeoutSignal(c)` gives the handler, with a `TimeoutError` DOMException as its reason.
 * The deadline covers producing the response, not sending a streamed body: a stream that
 * should stop at the deadline reads the signal. Work that ignores the signal goes on after the
 * 504 (JavaScript cannot stop it); its result is dropped. The 504 is an answer, not logged as an
 * error, and neither is the handler failing with the signal's reason; another error it throws
 * after the deadline is logged once.
 *
 * @example
 * import { timeout, timeoutSignal } from 'rove/timeout';
 * app.use('/api', timeout(5000));
 * app.get('/api/report', async (c) => {
 *   const res = await fetch(upstream, { signal: timeoutSignal(c) }); // aborted at 5 s
 *   return c.json(await res.json());
 * });
 */
export function timeout(ms: number): Handler {
  if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_DELAY) throw new RangeError(`timeout(): ms is a positive number of milliseconds, at most ${MAX_DELAY}`);
  const guard: Handler = (c, next) => {
    const controller = new AbortController();
    // Nested timeouts: the inner signal also follows the outer one, so the earliest deadline wins.
    const outer = signals.get(c);
    const signal = outer === undefined ? controller.signal : AbortSignal.any([outer, controller.signal]);
    signals.set(c, signal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, fail) => {
      timer = setTimeout(() => {
        // The 504 is an answer, not a fault, and the handler stopping on the aborted signal is its
        // expected consequence: the default error report logs neither. Anything else the handler
        // throws after the deadline is reported once, where it escapes (compose's onError).
        controller.abort(leaveUnreported(new DOMException(`The handler did not answer within ${ms} ms`, 'TimeoutError')));
        fail(leaveUnreported(new HttpError(504, 'The server did not answer in time')));
      }, ms);
    });
    const work = next();
    // After the deadline, the chain's own outcome is nobody's to handle (an error in it was already
    // answered, and reported once, by the layer it escaped from).
    work.catch(() => {});
    // The signal stays on the context (a WeakMap entry, gone with it): work that outlives the 504 still sees it aborted.
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  };
  return named('timeout', guard);
}

/**
 * The signal of the request's timeout(): aborted at the deadline. Outside any timeout(), a
 * signal that never aborts, so handlers can pass it on unconditionally.
 *
 * @example
 * await db.query(sql, { signal: timeoutSignal(c) });
 */
export function timeoutSignal(c: Context<any, any, any>): AbortSignal {
  return signals.get(c) ?? (never ??= new AbortController().signal);
}
