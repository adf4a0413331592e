// Just enough of the Perfetto trace format (protobuf) to read the slices workerd writes with
// `workerd serve --perfetto-trace=FILE=workerd`: track events with interned names and the
// SDK's incremental timestamps. Field numbers are from perfetto's protos/perfetto/trace/.
type Field = [no: number, value: bigint | Uint8Array];

function* fields(b: Uint8Array, start = 0, end = b.length): Generator<Field> {
  let p = start;
  const varint = (): bigint => {
    let r = 0n;
    let shift = 0n;
    for (;;) {
      const x = b[p++]!;
      r |= BigInt(x & 0x7f) << shift;
      if (!(x & 0x80)) return r;
      shift += 7n;
    }
  };
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  while (p < end) {
    const key = Number(varint());
    const no = key >>> 3;
    switch (key & 7) {
      case 0:
        yield [no, varint()];
        break;
      case 1:
        yield [no, view.getBigUint64(p, true)];
        p += 8;
        break;
      case 2: {
        const len = Number(varint());
        yield [no, b.subarray(p, p + len)];
        p += len;
        break;
      }
      case 5:
        yield [no, BigInt(view.getUint32(p, true))];
        p += 4;
        break;
      default:
        throw new Error(`perfetto: unsupported wire type ${key & 7}`);
    }
  }
}

const text = (v: bigint | Uint8Array) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : String(v));
const num = (v: bigint | Uint8Array | undefined) => (typeof v === 'bigint' ? v : 0n);

export interface Slice {
  name: string;
  /** Nanoseconds, relative to the sequence's first timestamp. */
  start: number;
  dur: number;
  depth: number;
}

interface Sequence {
  incremental: boolean;
  now: bigint;
  names: Map<bigint, string>;
  stacks: Map<string, { name: string; start: bigint }[]>;
}

// TracePacket: 8 timestamp, 10 trusted_packet_sequence_id, 11 track_event, 12 interned_data,
// 13 sequence_flags (1: incremental state cleared), 58 timestamp_clock_id, 59 trace_packet_defaults.
// TrackEvent: 9 type (1 begin, 2 end), 10 name_iid, 11 track_uuid, 23 name. InternedData: 2 event_names {1 iid, 2 name}.
const INCREMENTAL_CLOCK = 64n; // the SDK's per-sequence clock of timestamp deltas

/** The complete begin/end slices of a trace file's bytes. */
export function traceSlices(bytes: Uint8Array): Slice[] {
  const out: Slice[] = [];
  const seqs = new Map<bigint, Sequence>();
  for (const [no, packet] of fields(bytes)) {
    if (no !== 1 || !(packet instanceof Uint8Array)) continue;
    const f = new Map<number, (bigint | Uint8Array)[]>();
    for (const [n, v] of fields(packet)) f.set(n, [...(f.get(n) ?? []), v]);
    const id = num(f.get(10)?.[0]);
    let seq = seqs.get(id);
    if (!seq) seqs.set(id, (seq = { incremental: false, now: 0n, names: new Map(), stacks: new Map() }));
    if (num(f.get(13)?.[0]) & 1n) {
      seq.names.clear();
      seq.now = 0n;
    }
    const defaults = f.get(59)?.[0];
    if (defaults instanceof Uint8Array) for (const [n, v] of fields(defaults)) if (n === 58) seq.incremental = v === INCREMENTAL_CLOCK;
    const ts = f.get(8)?.[0];
    if (typeof ts === 'bigint') seq.now = seq.incremental ? seq.now + ts : ts;
    const interned = f.get(12)?.[0];
    if (interned instanceof Uint8Array)
      for (const [n, v] of fields(interned)) {
        if (n !== 2 || !(v instanceof Uint8Array)) continue;
        let iid = 0n;
        let name = '';
        for (const [a, c] of fields(v)) {
          if (a === 1) iid = num(c);
          else if (a === 2) name = text(c);
        }
        seq.names.set(iid, name);
      }
    const event = f.get(11)?.[0];
    if (!(event instanceof Uint8Array)) continue;
    let type = 0n;
    let name = '';
    let track = 'default';
    for (const [n, v] of fields(event)) {
      if (n === 9) type = num(v);
      else if (n === 10) name = seq.names.get(num(v)) ?? '';
      else if (n === 23) name = text(v);
      else if (n === 11) track = String(v);
    }
    const stack = seq.stacks.get(track) ?? [];
    seq.stacks.set(track, stack);
    if (type === 1n) stack.push({ name, start: seq.now });
    else if (type === 2n) {
      const open = stack.pop();
      if (open) out.push({ name: open.name, start: Number(open.start), dur: Number(seq.now - open.start), depth: stack.length });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
