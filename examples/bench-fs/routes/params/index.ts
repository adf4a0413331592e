import type { Params } from '../../../../bench/shared/schema.ts';
import type { Context } from '../../../../src/index.ts';

export function POST(c: Context<any, { json: Params }>) {
  return c.json(c.valid('json'));
}
