// The bundle-size section of the report: Rove's two-route app beside Hono's, minified and gzipped.
import { type BundleSizes, kb, roveOverHono } from '../lib/bundle-size.ts';
import { type Block, type Cell, slug } from './blocks.ts';
import { DASH, times } from './format.ts';

/** The bundle-size section: the two-route app with Rove and with Hono, and the hello worker. */
export function bundleSizeBlocks(sizes: BundleSizes): Block[] {
  const title = 'Bundle size';
  const hono = sizes.bundles.find((b) => b.id === 'hono');
  // Only the same app compares; bold marks a Rove bundle larger than Hono's.
  const vsHono = (a: number | null, b: number | null | undefined): Cell => {
    if (a == null || b == null || b <= 0) return DASH;
    const r = a / b;
    return { text: times(r), tone: r <= 1 ? 'good' : 'bad', strong: r > 1 };
  };
  const rows: Cell[][] = sizes.bundles.map((b) => [
    b.label,
    `\`${b.entry}\``,
    b.bytes == null ? { text: 'failed', tone: 'bad' } : kb(b.bytes),
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
      text: `On Workers a bundle's size counts against a quota and is loaded on every cold start. The same two-route app (\`GET /\` answering JSON, \`GET /users/:id\` answering the param as JSON) written with Rove (\`bench/size/rove.ts\`) and with Hono (\`bench/size/hono.ts\`), and examples/hello's worker, each bundled as a Workers build does it and minified; gzip at level 9. 1 KB = 1,000 bytes. rove ${sizes.versions.rove}, hono ${sizes.versions.hono}, esbuild ${sizes.versions.esbuild}. Method: [methods.md](methods.md#bundle-size).`,
    },
    {
      kind: 'table',
      table: {
        columns: [
          { label: 'Bundle' },
          { label: 'Entry' },
          { label: 'Minified', align: 'right' },
          { label: 'gzip', align: 'right' },
          { label: 'Rove/Hono minified', align: 'right' },
          { label: 'Rove/Hono gzip', align: 'right' },
        ],
        rows,
      },
    },
    {
      kind: 'p',
      text: `Rove/Hono: ${times(r.bytes)} minified, ${times(r.gzipBytes)} gzipped (below 1.00× Rove's bundle is smaller).`,
    },
    ...(failed.length ? [{ kind: 'list' as const, items: failed.map((b) => `\`${b.entry}\`: ${b.error}`) }] : []),
  ];
}
