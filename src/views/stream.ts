const CHUNK = 16 * 1024;

/**
 * A byte stream of a string produced on first pull. The text is encoded in
 * chunks as the consumer reads, so a large page is never held twice in full.
 */
export function streamText(produce: () => string | Promise<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let text: string | undefined;
  let pos = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (text === undefined) text = await produce();
      if (pos < text.length) {
        let end = Math.min(pos + CHUNK, text.length);
        // Never split a surrogate pair between two chunks.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        controller.enqueue(encoder.encode(text.slice(pos, end)));
        pos = end;
      }
      if (pos >= text.length) {
        text = '';
        controller.close();
      }
    },
    cancel() {
      text = '';
    },
  });
}
