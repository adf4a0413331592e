// Guards against V8 deopt loops on Deno: the bench app under --trace-deopt,
// every scenario under light load in bench order and then in reverse. A deopt
// loop in App.handle once cost /query 3 µs per request (docs/design-notes.md).
// Counts deopts, not time, so a noisy machine cannot fail it.
import { describe, expect, it } from 'vitest';
import { deoptCounter, deoptLoops, scanDeopts } from '../../bench/deopt-scan.ts';

describe('deopt scan', () => {
  it('counts deopts per function across split chunks', () => {
    const c = deoptCounter();
    const line = (fn: string) =>
      `[bailout (kind: deopt-eager, reason: Insufficient type feedback for generic keyed access): begin. deoptimizing 0x3808a32922b9 <JSFunction ${fn} (sfi = 0x1594f1534b29)>, opt id 1]\n`;
    const text = `${line('handle')}unrelated output\n${line('handle')}${line('match')}${line('')}`;
    c.push(text.slice(0, 57));
    c.push(text.slice(57, 200));
    c.push(text.slice(200));
    expect(Object.fromEntries(c.counts)).toEqual({ handle: 2, match: 1, '(anonymous)': 1 });
    expect(deoptLoops(c.counts, 1)).toEqual([['handle', 2]]);
  });

  it('finds no deopt loop in the Rove bench app on Deno', { timeout: 120_000 }, async () => {
    const result = await scanDeopts({ runtime: 'deno', framework: 'rove', seconds: 0.5, connections: 10, pipelining: 10 });
    expect(result.requests).toBeGreaterThan(1000);
    // A warm-up deopts a function a few times; the loop this guards against did it hundreds of times.
    expect(deoptLoops(result.counts, 20)).toEqual([]);
  });
});
