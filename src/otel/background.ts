// Spans for work outside the request: `waitUntil` work, and scheduled tasks.

import { context, type Context as OtelContext, ROOT_CONTEXT, type Span, SpanKind, type Tracer, trace } from '@opentelemetry/api';
import type { ExecutionContext } from '../core/context.ts';
import type { TaskAround, TaskContext } from '../tasks/run.ts';
import { failed, recordFailure } from './attributes.ts';

/** A span from now until `work` settles, under `parent`: what `waitUntil` keeps alive after the response. */
function traceWork(tracer: Tracer, name: string, work: Promise<unknown>, parent: OtelContext): Promise<unknown> {
  const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL }, parent);
  return Promise.resolve(work).then(
    (value) => {
      span.end();
      return value;
    },
    (error) => {
      recordFailure(span, error, failed(error, 500));
      span.end();
      throw error;
    },
  );
}

/**
 * The request's execution context, with `waitUntil` work traced as a child of the request span
 * (it is part of the request's trace, though it may end after the response). Its methods work
 * unbound, as the untraced one's do; no getter of its own (a literal with one costs a request
 * more than the rest of the tracing).
 */
export function tracedContext(tracer: Tracer, ctx: ExecutionContext, parent: OtelContext): ExecutionContext {
  return {
    // The caller's context, when the handler made a span of its own; else the request span's.
    waitUntil: (work) => ctx.waitUntil(traceWork(tracer, 'waitUntil', work, spanOr(parent))),
    passThroughOnException: () => ctx.passThroughOnException?.(),
    // Workers' ctx.props, for a worker that reads it through Rove's context.
    props: (ctx as { props?: unknown }).props,
  } as ExecutionContext;
}

/** The active context when it has a span, else `fallback`. */
function spanOr(fallback: OtelContext): OtelContext {
  const active = context.active();
  return trace.getSpan(active) === undefined ? fallback : active;
}

/**
 * A task's span, active while its handler runs: a root span (no request started it), named
 * `task <name>`, with its schedule; its `waitUntil` work gets child spans.
 */
export function taskSpans(tracer: Tracer): TaskAround {
  return (t, run) => {
    const span: Span = tracer.startSpan(`task ${t.name}`, {
      kind: SpanKind.INTERNAL,
      root: true,
      attributes: { 'rove.task.name': t.name, 'rove.task.cron': t.cron, 'rove.task.scheduled_time': new Date(t.scheduledTime).toISOString() },
    });
    if (!span.isRecording()) return run(t);
    const scope = trace.setSpan(ROOT_CONTEXT, span);
    const traced: TaskContext<any> = {
      name: t.name,
      cron: t.cron,
      scheduledTime: t.scheduledTime,
      env: t.env,
      waitUntil: (work) => t.waitUntil(traceWork(tracer, 'waitUntil', work, spanOr(scope))),
    };
    return context
      .with(scope, () => run(traced))
      .then(
        (value) => {
          span.end();
          return value;
        },
        (error) => {
          recordFailure(span, error, failed(error, 500));
          span.end();
          throw error;
        },
      );
  };
}
