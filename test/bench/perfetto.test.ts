// The Perfetto reader behind bench:cold's workerd startup time, on a hand-encoded trace shaped
// like workerd's: interned names, incremental timestamps, nested begin/end slices.
import { describe, expect, it } from 'vitest';
import { traceSlices } from '../../bench/lib/perfetto.ts';

const varint = (n: number): number[] => {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return out;
};
const int = (no: number, n: number) => [...varint(no << 3), ...varint(n)];
const bytes = (no: number, b: number[]) => [...varint((no << 3) | 2), ...varint(b.length), ...b];
const str = (no: number, s: string) => bytes(no, [...new TextEncoder().encode(s)]);

const SEQ = int(10, 2);
const packet = (...f: number[][]) => bytes(1, f.flat());
const named = (iid: number, name: string) => bytes(12, bytes(2, [...int(1, iid), ...str(2, name)]));
const begin = (iid: number) => bytes(11, [...int(9, 1), ...int(10, iid)]);
const end = bytes(11, int(9, 2));

describe('traceSlices', () => {
  it('reads nested slices with interned names and incremental timestamps', () => {
    const trace = new Uint8Array([
      // State cleared; timestamps on the SDK's incremental clock (64).
      ...packet(SEQ, int(13, 1), bytes(59, int(58, 64)), int(8, 0), named(1, 'Server::makeWorker()'), begin(1)),
      ...packet(SEQ, int(8, 1_000_000), named(2, 'WorkerdApi::compileModules()'), begin(2)),
      ...packet(SEQ, int(8, 2_000_000), end),
      ...packet(SEQ, int(8, 3_000_000), end),
      // A name given inline, not interned.
      ...packet(SEQ, int(8, 500), bytes(11, [...int(9, 1), ...str(23, 'listenOnSockets')])),
      ...packet(SEQ, int(8, 700), end),
    ]);
    expect(traceSlices(trace)).toEqual([
      { name: 'Server::makeWorker()', start: 0, dur: 6_000_000, depth: 0 },
      { name: 'WorkerdApi::compileModules()', start: 1_000_000, dur: 2_000_000, depth: 1 },
      { name: 'listenOnSockets', start: 6_000_500, dur: 700, depth: 0 },
    ]);
  });
});
