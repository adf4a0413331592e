import { describe, expect, it } from 'vitest';
import { knownLimit } from '../../bench/lib/known-limits.ts';

describe('known runtime limits', () => {
  it('names Bun’s pipelining bug for the pool route, only when pipelined', () => {
    expect(knownLimit('bun', 'test-worker', 10)?.note).toMatch(/oven-sh\/bun#38128/);
    expect(knownLimit('bun', 'test-worker', 1)).toBeUndefined();
    expect(knownLimit('bun', 'test', 10)).toBeUndefined();
  });

  it('names workerd’s uneven pipelining for every scenario', () => {
    expect(knownLimit('workerd', 'text', 10)?.note).toMatch(/raw/);
    expect(knownLimit('workerd', 'text', 1)).toBeUndefined();
    expect(knownLimit('node', 'text', 10)).toBeUndefined();
  });
});
