import type { Context } from '../../../src/index.ts';

export async function POST(c: Context) {
  return c.json(await c.req.json());
}
