import type { Context } from '../../../src/index.ts'
import { fortunesForRequest } from '../../../bench/shared/fixtures.ts'

export function GET(c: Context) {
  return c.render('fortunes', { fortunes: fortunesForRequest() })
}
