import type { Context } from '../../../src/index.ts';

export function GET(c: Context) {
  return c.json({ hello: 'world!' });
}
