import type { Context } from '../../../src/index.ts'
import { nestedUser } from '../../../bench/shared/fixtures.ts'

export function GET(c: Context) {
  return c.json(nestedUser())
}
