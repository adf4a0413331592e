/**
 * Give a middleware its factory's name, as a string, so bundlers that rename or minify the
 * function keep it: a trace's middleware span (rove/otel) shows `middleware cors`.
 */
export function named<F extends (...args: never[]) => unknown>(name: string, fn: F): F {
  return Object.defineProperty(fn, 'name', { value: name });
}
