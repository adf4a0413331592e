// What a file's first bytes say it is, read as the file streams past.

const SIGNATURES: [string, number[]][] = [
  ['png', [0x89, 0x50, 0x4e, 0x47]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['gif', [0x47, 0x49, 0x46, 0x38]],
  ['pdf', [0x25, 0x50, 0x44, 0x46]],
  ['zip', [0x50, 0x4b, 0x03, 0x04]],
];

/**
 * A pass-through stream that looks at the first bytes, and what it found.
 *
 * @example
 * const s = sniffer();
 * await store.put(key, body.pipeThrough(s.stream));
 * s.kind(); // 'png'
 */
export function sniffer(): { stream: TransformStream<Uint8Array, Uint8Array>; kind(): string } {
  const head = new Uint8Array(8);
  let seen = 0;
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (seen < head.length) {
        const take = chunk.subarray(0, head.length - seen);
        head.set(take, seen);
        seen += take.byteLength;
      }
      controller.enqueue(chunk);
    },
  });
  return {
    stream,
    kind() {
      if (seen === 0) return 'empty';
      for (const [name, sig] of SIGNATURES) if (sig.every((b, i) => head[i] === b)) return name;
      return 'unknown';
    },
  };
}
