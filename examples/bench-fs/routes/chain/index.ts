import type { Context } from '../../../../src/index.ts';
import type { ChainEnv } from './_middleware.ts';

export function GET(c: Context<ChainEnv>) {
  return c.json({ hello: 'chain', sub: c.get('claims').sub });
}
