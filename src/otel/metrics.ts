// The request duration histogram, from request events: every request, routed or refused.

import type { Attributes, Meter } from '@opentelemetry/api';
import type { Listener } from '../core/events.ts';
import { failed, methodOf } from './attributes.ts';

// Buckets the semantic conventions advise for http.server.request.duration (seconds).
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** A `request:complete` listener that records `http.server.request.duration`. */
export function durationMetric(meter: Meter): Listener<'request:complete'> {
  const duration = meter.createHistogram('http.server.request.duration', {
    unit: 's',
    description: 'Duration of HTTP server requests.',
    advice: { explicitBucketBoundaries: BUCKETS },
  });
  return (event) => {
    const m = event.metadata;
    const labels: Attributes = { 'http.request.method': methodOf(m.method), 'http.response.status_code': m.status };
    if (m.route !== null) labels['http.route'] = m.route;
    if (m.status >= 500) labels['error.type'] = failed(m.error, m.status);
    duration.record(m.durationMs / 1000, labels);
  };
}
