import { fortunesForRequest } from '../../../bench/shared/fixtures.ts';
import type { Context } from '../../../src/index.ts';

export function GET(c: Context) {
  return c.render('fortunes', { fortunes: fortunesForRequest() });
}
