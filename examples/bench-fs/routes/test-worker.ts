import type { Context } from '../../../src/index.ts'

// Mirrors examples/bench/app.ts: 501 until the worker pool lands (issue 4), then the pool runs cpuWork.
export function GET(c: Context) {
  return c.json({ title: 'Not Implemented', status: 501, detail: 'the worker pool is not available in this Rove build yet' }, 501)
}
