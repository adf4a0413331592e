// `processes` takes a value passed in (processGroup() from rove/<runtime>/processes), so an app
// without one bundles none of the group code: a plain count is a type error, and at run time a
// TypeError that says what to import; another runtime's group is refused the same way.
import { describe, expect, it } from 'vitest';
import { processGroup as bunGroup } from '../../adapters/bun/processes.ts';
import { processGroup as denoGroup } from '../../adapters/deno/processes.ts';
import { serve } from '../../adapters/node/index.ts';
import { processGroup as nodeGroup } from '../../adapters/node/processes.ts';
import { checkProcesses } from '../../adapters/shared/process-env.ts';
import { groupOption } from '../../adapters/shared/serve-options.ts';
import { App } from '../../src/index.ts';

describe('processGroup()', () => {
  it('is a value for its runtime, its count read at once', () => {
    expect([nodeGroup(3).runtime, denoGroup(2).runtime, bunGroup('auto').runtime]).toEqual(['node', 'deno', 'bun']);
    expect(nodeGroup(3).count).toBe(3);
    expect(bunGroup('auto').count).toBeGreaterThanOrEqual(1);
    expect(() => nodeGroup(0)).toThrow(RangeError);
    expect(() => denoGroup(1.5)).toThrow(RangeError);
  });

  it('a group of one serves alone', () => {
    expect(nodeGroup(1).join({})).toEqual({ alone: true });
  });
});

describe('serve({ processes })', () => {
  it('a plain count is a type error, and throws naming the import', () => {
    // @ts-expect-error: processes takes processGroup(n), not a number
    expect(() => serve(new App(), { port: 0, processes: 2 })).toThrow(/import \{ processGroup \} from 'rove\/node\/processes'.*processGroup\(2\)/);
    // @ts-expect-error: nor 'auto'
    expect(() => serve(new App(), { port: 0, processes: 'auto' })).toThrow(TypeError);
    for (const runtime of ['deno', 'bun'] as const) {
      expect(() => groupOption(runtime, { processes: 4 as never })).toThrow(`rove/${runtime}/processes`);
    }
  });

  it("another runtime's group is refused, saying which to import", () => {
    expect(() => groupOption('node', { processes: denoGroup(2) })).toThrow(/rove\/deno's.*rove\/node\/processes/);
    expect(groupOption('bun', { processes: bunGroup(2) })?.count).toBe(2);
    expect(groupOption('deno', {})).toBeUndefined();
  });
});

describe('checkProcesses', () => {
  it("takes 'auto', a positive integer or nothing, and refuses anything else at once", () => {
    for (const ok of [undefined, 'auto', 1, 4] as const) expect(() => checkProcesses(ok)).not.toThrow();
    for (const bad of [0, -1, 1.5, Number.NaN, 'many' as 'auto']) expect(() => checkProcesses(bad)).toThrow(RangeError);
  });
});
