// Optional spans per middleware and handler: each layer of a chain wrapped once, when the chain is
// composed, in a span that is active while the layer (and everything after it) runs.

import { context, type Tracer, trace } from '@opentelemetry/api';
import type { Handler } from '../core/compose.ts';
import { failed, recordFailure } from './attributes.ts';

/**
 * The span names of a chain's layers: a function's own name, or its place in the chain when it
 * has none (`middleware 2`); the last layer is the handler.
 */
export function layerNames(layers: readonly Handler[], route: string | null): string[] {
  return layers.map((fn, i) => {
    const handler = i === layers.length - 1;
    const own = fn.name.replace(/^bound /, '');
    if (handler) return own === '' ? `handler ${route ?? '(no route)'}` : `handler ${own}`;
    return own === '' ? `middleware ${i + 1}` : `middleware ${own}`;
  });
}

/** Wrap each layer in a span named by `layerNames`. */
export function layerSpans(tracer: Tracer, layers: readonly Handler[], route: string | null): Handler[] {
  const names = layerNames(layers, route);
  return layers.map((fn, i) => {
    const name = names[i];
    const attributes = { 'rove.layer': i === layers.length - 1 ? 'handler' : 'middleware', 'rove.layer.index': i };
    return (c, next) => {
      const span = tracer.startSpan(name, { attributes });
      if (!span.isRecording()) return fn(c, next);
      const fail = (error: unknown) => {
        recordFailure(span, error, failed(error, 500));
        span.end();
        throw error;
      };
      let out: unknown;
      try {
        out = context.with(trace.setSpan(context.active(), span), fn, undefined, c, next);
      } catch (error) {
        return fail(error);
      }
      if (!(out instanceof Promise)) {
        span.end();
        return out;
      }
      return out.then((value) => {
        span.end();
        return value;
      }, fail);
    };
  });
}
