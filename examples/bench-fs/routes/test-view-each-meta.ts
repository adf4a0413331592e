import type { Context } from '../../../src/index.ts';

const ITEMS = Array.from({ length: 50 }, (_, i) => i);

export function GET(c: Context) {
  return c.render('each-meta', { items: ITEMS });
}
