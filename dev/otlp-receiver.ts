// An OTLP/HTTP trace receiver on a loopback port, as a collector would be: it takes what an
// exporter posts to /v1/traces (OTLP JSON) and keeps the spans, decoded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string }[];
  service: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;

function attributes(list: OtlpAttributes): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? [])
    out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue));
  return out;
}

// OTLP JSON carries ids as hex (the spec) but some exporters send base64: take both.
function hexId(id: string | undefined): string {
  if (id === undefined || id === '') return '';
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

/** Decode one OTLP/JSON ExportTraceServiceRequest into spans. */
export function decodeTraces(body: unknown): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of (body as { resourceSpans?: unknown[] }).resourceSpans ?? []) {
    const r = rs as { resource?: { attributes?: OtlpAttributes }; scopeSpans?: { spans?: Record<string, any>[] }[] };
    const service = String(attributes(r.resource?.attributes)['service.name'] ?? '');
    for (const scope of r.scopeSpans ?? []) {
      for (const s of scope.spans ?? []) {
        spans.push({
          traceId: hexId(s.traceId),
          spanId: hexId(s.spanId),
          parentSpanId: hexId(s.parentSpanId),
          name: s.name,
          kind: s.kind,
          startNs: BigInt(s.startTimeUnixNano),
          endNs: BigInt(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          status: s.status?.code ?? 0,
          events: (s.events ?? []).map((e: { name: string; attributes?: OtlpAttributes }) => ({ name: e.name, attributes: attributes(e.attributes) })),
          links: (s.links ?? []).map((l: { traceId: string; spanId: string }) => ({ traceId: hexId(l.traceId), spanId: hexId(l.spanId) })),
          service,
        });
      }
    }
  }
  return spans;
}

export interface Receiver {
  url: string;
  spans: ReceivedSpan[];
  /** The `traceparent` of every other request it answered (it stands in for a downstream service too). */
  traceparents: (string | undefined)[];
  /** Wait until `pick` finds what it needs among the spans, or throw after `ms`. */
  until<T>(pick: (spans: ReceivedSpan[]) => T | undefined, ms?: number): Promise<T>;
  close(): Promise<void>;
}

/** Start a receiver on a free loopback port. Bodies over 8 MiB are refused. */
export async function startReceiver(): Promise<Receiver> {
  const spans: ReceivedSpan[] = [];
  const traceparents: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 8 << 20) chunks.push(chunk);
    });
    req.on('end', () => {
      if (req.url !== '/v1/traces') {
        traceparents.push(req.headers.traceparent as string | undefined);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('downstream');
        return;
      }
      if (req.method !== 'POST' || size > 8 << 20 || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(400).end();
        return;
      }
      try {
        spans.push(...decodeTraces(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    traceparents,
    async until(pick, ms = 15_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = pick(spans);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`the receiver did not get the spans in ${ms} ms; it has: ${spans.map((s) => s.name).join(', ') || 'none'}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
