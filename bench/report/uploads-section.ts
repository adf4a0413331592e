// The uploads section of the report: one large file streamed to disk by Rove and by Hono, per
// runtime, with throughput and the server's memory growth.

import { median } from '../lib/result.ts';
import type { UploadRow, UploadsResult } from '../lib/uploads.ts';
import { type Block, type Cell, slug } from './blocks.ts';
import { DASH, rangeText, times } from './format.ts';

/** `median (lowest–highest)` of the rounds that ran, or the failure. */
function spread(values: (number | null)[], digits: number, error: string | undefined): Cell {
  const ok = values.filter((v): v is number => v !== null);
  if (ok.length === 0) return { text: `failed: ${error ?? 'no round ran'}`, tone: 'bad' };
  const f = (n: number) => n.toFixed(digits);
  const text = rangeText(ok, f);
  return ok.length < values.length ? { text: `${text}, ${values.length - ok.length} failed`, tone: 'warn' } : text;
}

/** Rove over Hono per round (rounds where both ran), as `median (lowest–highest)`. */
function ratio(rove: UploadRow, hono: UploadRow | undefined, key: 'mbps' | 'growthMiB'): Cell {
  if (!hono) return DASH;
  const rs: number[] = [];
  rove[key].forEach((v, i) => {
    const h = hono[key][i];
    if (v != null && h != null && h > 0) rs.push(v / h);
  });
  if (rs.length === 0) return DASH;
  const m = median(rs);
  const better = key === 'mbps' ? m >= 1 : m <= 1;
  return {
    text: rangeText(rs, times),
    tone: better ? 'good' : 'bad',
    strong: !better,
  };
}

const NAMES: Record<string, string> = { rove: 'Rove, `parts()`', hono: 'Hono, `parseBody()`', raw: 'raw: the body to disk, unparsed' };

export function uploadsBlocks(u: UploadsResult): Block[] {
  const title = 'Uploads';
  const rows: Cell[][] = u.rows.map((r) => {
    const other = (f: string) => (r.framework === 'rove' ? u.rows.find((h) => h.runtime === r.runtime && h.framework === f) : undefined);
    const hono = other('hono');
    return [
      r.runtime,
      NAMES[r.framework],
      `${r.sizeMiB} MiB × ${r.mbps.length}`,
      spread(r.mbps, 0, r.error),
      spread(r.growthMiB, 0, r.error),
      r.framework === 'rove' ? ratio(r, hono, 'mbps') : DASH,
      r.framework === 'rove' ? ratio(r, hono, 'growthMiB') : DASH,
      r.framework === 'rove' ? ratio(r, other('raw'), 'mbps') : DASH,
    ];
  });
  return [
    { kind: 'h', level: 2, text: title, id: slug(title) },
    {
      kind: 'p',
      text: `One large file in a multipart body, posted over loopback to a server that writes it to disk: Rove reads it with \`parts()\` from \`rove/uploads\` as it arrives, Hono with \`c.req.parseBody()\`, which holds the whole body in memory first, and a bare server with no framework ("raw") stores the whole body unparsed, the runtime's ceiling (\`bench/uploads/\`, the same disk writer for all three). Each round starts a fresh server, uploads 4 MiB to warm up, then the file. Throughput is MB/s (10⁶ bytes) from the first byte sent to the answer; growth is the server's peak resident set (VmHWM, reset before the upload) above its resident set just before. Median over the rounds (lowest–highest). Deno's rows may use a smaller file: Deno.serve reads a request body ahead of a slower reader without bound, and slows down as it does, Rove or not. Method: [methods.md](methods.md#uploads).`,
    },
    {
      kind: 'table',
      table: {
        columns: [
          { label: 'Runtime' },
          { label: 'Framework' },
          { label: 'File × rounds', align: 'right' },
          { label: 'MB/s', align: 'right' },
          { label: 'Memory growth, MiB', align: 'right' },
          { label: 'Rove/Hono MB/s', align: 'right' },
          { label: 'Rove/Hono memory', align: 'right' },
          { label: 'Rove/raw MB/s', align: 'right' },
        ],
        rows,
      },
    },
  ];
}
