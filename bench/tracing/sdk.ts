// The tracing set-up both frameworks get in the tracing bench: the OpenTelemetry SDK as an app
// would run it (a batch processor, the AsyncLocalStorage context manager, the W3C propagator),
// with an exporter that drops the spans, so the figures are the cost of making them.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type ExportResult, ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';

class DroppingExporter implements SpanExporter {
  /** Spans handed over, so a check can tell the SDK was really recording. */
  exported = 0;
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.exported += spans.length;
    done({ code: ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export const exporter = new DroppingExporter();

/** Register the SDK globally, before the app is made. */
export function startTracingSdk(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 8192, maxExportBatchSize: 1024 })] }),
  );
}
