// The request span: a layer in front of each chain, made when the chain is composed (so it knows the
// route pattern), that makes the span the active one for everything after it.

import { type Attributes, context, ProxyTracerProvider, propagation, type Span, SpanKind, type TextMapGetter, type Tracer, trace } from '@opentelemetry/api';
import { type Handler, NEXT_DONE, type Next } from '../core/compose.ts';
import type { Context } from '../core/context.ts';
import { failed, methodOf, recordFailure } from './attributes.ts';
import { tracedContext } from './background.ts';

export interface RequestSpanOptions {
  tracer: Tracer;
  /** The tracer is the global provider's: skip the request while no SDK has registered one. */
  global: boolean;
  propagate: boolean;
  /** Spans for `waitUntil` work handed on by the request. */
  background: boolean;
}

const getter: TextMapGetter<Context<any, any>> = {
  get: (c, key) => c.req.header(key),
  // Only a propagator that lists the headers asks (W3C's reads by name).
  keys: (c) => {
    const names: string[] = [];
    c.req.raw.headers.forEach((_, name) => names.push(name));
    return names;
  },
};

// What the global provider hands out until an SDK registers one: the API's no-op provider.
const NO_PROVIDER = new ProxyTracerProvider().getDelegate();

/** No SDK has registered a tracer provider (yet): a span would record nothing. */
function noProvider(): boolean {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NO_PROVIDER;
}

/** The layer that opens the request span for a chain answering `route` (null: no route matched). */
export function requestSpan(route: string | null, options: RequestSpanOptions): Handler {
  const { tracer, propagate, background } = options;
  return (c: Context<any, any>, next: Next) => {
    // Without an SDK the request runs as it would untraced: not even its attributes are read.
    if (options.global && noProvider()) return next();
    const active = context.active();
    // A server span the platform made already (Deno's OTEL_DENO, Node's HTTP instrumentation):
    // name it after the route instead of starting a second one.
    const platform = trace.getSpan(active);
    if (platform?.isRecording()) return adopt(platform, route, c, next);
    const parent = propagate ? propagation.extract(active, c, getter) : active;
    const method = methodOf(c.req.method);
    const span = tracer.startSpan(route === null ? method : `${method} ${route}`, { kind: SpanKind.SERVER, attributes: startAttributes(c, route) }, parent);
    // A tracer that records nothing (a sampler's no, a no-op tracer passed in): run as untraced.
    if (!span.isRecording()) return next();
    const ids = span.spanContext();
    c.set('traceId', ids.traceId);
    c.set('spanId', ids.spanId);
    const scope = trace.setSpan(parent, span);
    if (background) c.executionCtx = tracedContext(tracer, c.executionCtx, scope);
    let out: Promise<void>;
    try {
      out = context.with(scope, next);
    } catch (error) {
      // next() itself does not throw (each layer answers its own errors); a defect still ends the span.
      recordFailure(span, error, failed(error, 500));
      span.end();
      throw error;
    }
    // Everything after this layer finished synchronously: end the span now and keep the fast path.
    if (out === NEXT_DONE) {
      finish(span, c);
      return out;
    }
    return out.then(
      () => finish(span, c),
      (error) => {
        recordFailure(span, error, failed(error, 500));
        span.end();
        throw error;
      },
    );
  };
}

function adopt(span: Span, route: string | null, c: Context<any, any>, next: Next): Promise<void> {
  if (route !== null) {
    span.setAttribute('http.route', route);
    span.updateName(`${methodOf(c.req.method)} ${route}`);
  }
  const ids = span.spanContext();
  c.set('traceId', ids.traceId);
  c.set('spanId', ids.spanId);
  // The platform ends its span with the response; an escaped error is still ours to report.
  return next().then(() => {
    const code = status(c);
    if (c.error !== undefined && code >= 500) recordFailure(span, c.error, failed(c.error, code));
  });
}

function startAttributes(c: Context<any, any>, route: string | null): Attributes {
  const method = methodOf(c.req.method);
  const attributes: Attributes = {
    'http.request.method': method,
    'url.path': c.path,
    'url.scheme': c.req.protocol,
  };
  if (method === '_OTHER') attributes['http.request.method_original'] = c.req.method;
  if (route !== null) attributes['http.route'] = route;
  const host = c.req.header('host');
  if (host !== undefined) {
    const port = /:(\d+)$/.exec(host);
    attributes['server.address'] = port === null ? host : host.slice(0, port.index);
    if (port !== null) attributes['server.port'] = Number(port[1]);
  }
  const length = c.req.header('content-length');
  if (length !== undefined && /^\d{1,15}$/.test(length)) attributes['http.request.body.size'] = Number(length);
  const agent = c.req.header('user-agent');
  if (agent !== undefined) attributes['user_agent.original'] = agent;
  const client = clientAddress(c);
  if (client !== undefined) attributes['client.address'] = client;
  return attributes;
}

function clientAddress(c: Context<any, any>): string | undefined {
  try {
    return c.req.ip;
  } catch {
    return undefined;
  }
}

/** The response's declared length (its Content-Length), or null. The body is not touched: on Node
 * that would turn the adapter's light response into a full one. */
function responseLength(c: Context<any, any>): number | null {
  try {
    const length = c.res.headers.get('content-length');
    return length !== null && /^\d{1,15}$/.test(length) ? Number(length) : null;
  } catch {
    return null;
  }
}

/** The status the chain ended with: its response's, or 500 when it has none. */
function status(c: Context<any, any>): number {
  try {
    return c.res.status;
  } catch {
    return 500;
  }
}

function finish(span: Span, c: Context<any, any>): void {
  const code = status(c);
  span.setAttribute('http.response.status_code', code);
  const length = responseLength(c);
  if (length !== null) span.setAttribute('http.response.body.size', length);
  // A server span marks 5xx as its error; a 4xx is the client's.
  if (code >= 500) recordFailure(span, c.error, failed(c.error, code));
  span.end();
}
