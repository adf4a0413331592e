// The raw SSE handler for the fetch-style runtimes: a ReadableStream that queues one event per pull.
const encoder = new TextEncoder();

export function sseResponse(): Response {
  let n = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(encoder.encode(`data: {"n":${n++}}\n\n`));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}
