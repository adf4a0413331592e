// The "Bundle size at the edge" section of the report (issue 11).
import { type BundleSizes, kb, roveOverHono } from '../lib/bundle-size.ts';
import { type Block, type Cell, slug } from './blocks.ts';
import { DASH, int, times } from './format.ts';

/** The "Bundle size at the edge" section: the two-route app with Rove and with Hono, and the hello worker. */
export function bundleSizeBlocks(sizes: BundleSizes): Block[] {
  const title = 'Bundle size at the edge';
  const hono = sizes.bundles.find((b) => b.id === 'hono');
  // Only the same app compares; bold marks a miss of the target (the Rove app no larger than Hono's).
  const vsHono = (a: number | null, b: number | null | undefined): Cell => {
    if (a == null || b == null || b <= 0) return DASH;
    const r = a / b;
    return { text: times(r), tone: r <= 1 ? 'good' : 'bad', strong: r > 1 };
  };
  const rows: Cell[][] = sizes.bundles.map((b) => [
    b.label,
    `\`${b.entry}\``,
    b.bytes == null ? { text: 'failed', tone: 'bad' } : int(b.bytes),
    kb(b.bytes),
    int(b.gzipBytes),
    kb(b.gzipBytes),
    b.id === 'rove' ? vsHono(b.bytes, hono?.bytes) : DASH,
    b.id === 'rove' ? vsHono(b.gzipBytes, hono?.gzipBytes) : DASH,
  ]);
  const r = roveOverHono(sizes);
  const failed = sizes.bundles.filter((b) => b.error);
  return [
    { kind: 'h', level: 2, text: title, id: slug(title) },
    {
      kind: 'p',
      text: `A bundle's size is cold-start time and a quota on Workers. The same two-route app (\`GET /\` answering JSON, \`GET /users/:id\` answering the param as JSON) written with Rove (\`bench/size/rove.ts\`) and with Hono (\`bench/size/hono.ts\`), and examples/hello's worker, each bundled as a Workers build does it: \`${sizes.command}\`. 1 KB = 1,000 bytes. Measured ${sizes.date.slice(0, 16).replace('T', ' ')} UTC with rove ${sizes.versions.rove}, hono ${sizes.versions.hono}, esbuild ${sizes.versions.esbuild}; the sizes are deterministic for a given tree and esbuild version (\`npm run bench:size\`).`,
    },
    {
      kind: 'table',
      table: {
        columns: [
          { label: 'Bundle' },
          { label: 'Entry' },
          { label: 'Bytes', align: 'right' },
          { label: 'KB', align: 'right' },
          { label: 'gzip bytes', align: 'right' },
          { label: 'gzip KB', align: 'right' },
          { label: 'vs Hono', align: 'right' },
          { label: 'gzip vs Hono', align: 'right' },
        ],
        rows,
      },
    },
    {
      kind: 'p',
      text: `Target (issue 11): Rove's two-route app bundles no larger than Hono's. Rove/Hono here: ${times(r.bytes)} minified, ${times(r.gzipBytes)} gzipped${(r.bytes ?? 0) > 1 || (r.gzipBytes ?? 0) > 1 ? ' (a ratio in **bold** misses the target)' : ''}.`,
    },
    ...(failed.length ? [{ kind: 'list' as const, items: failed.map((b) => `\`${b.entry}\`: ${b.error}`) }] : []),
  ];
}
