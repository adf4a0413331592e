import { POWERED_BY } from '../../../../bench/shared/fixtures.ts';
import type { Context } from '../../../../src/index.ts';

export function GET(c: Context) {
  c.header('x-powered-by', POWERED_BY);
  return c.text(`${c.req.param('id')} ${c.req.query('name')}`);
}
