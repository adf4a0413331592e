import { describe, expect, it } from 'vitest';
import { groupOf, medianOfRounds, parseReportLine, sideBySide, split } from '../../bench/perf-split.ts';

describe('bench/perf-split', () => {
  it('reads the lines of perf report --sort dso,sym', () => {
    expect(parseReportLine('    12.53%  [kernel.kallsyms]  [k] pvm_irq_enable')).toEqual({ pct: 12.53, dso: '[kernel.kallsyms]', sym: 'pvm_irq_enable' });
    expect(parseReportLine('     0.89%  [JIT] tid 18048      [.] JS:*#dispatch file:///tmp/b.mjs:23661:12')).toEqual({
      pct: 0.89,
      dso: '[JIT] tid 18048',
      sym: 'JS:*#dispatch file:///tmp/b.mjs:23661:12',
    });
    expect(parseReportLine('# Samples: 7K of event cpu-clock')).toBeNull();
    expect(parseReportLine('')).toBeNull();
  });

  it('groups a sample by where it landed', () => {
    expect(groupOf('[kernel.kallsyms]', 'tcp_sendmsg')).toBe('kernel');
    expect(groupOf('node', 'Builtins_LoadIC')).toBe('V8 builtins');
    expect(groupOf('[JIT] tid 1', 'JS:*clearBuffer node:internal/streams/writable:744:21')).toBe("runtime's JavaScript");
    expect(groupOf('[JIT] tid 1', "JS:*'fillHeaderList ext:deno_fetch/20_headers.js:1:2780")).toBe("runtime's JavaScript");
    expect(groupOf('[JIT] tid 1', 'JS:*#dispatch file:///work/src/core/app.ts:193:12')).toBe('framework and app JavaScript');
    expect(groupOf('[JIT] tid 1', 'JS:+#dispatch worker.js:1390:12')).toBe('framework and app JavaScript');
    expect(groupOf('[JIT] tid 1', '0x00007f3a2c001234')).toBe('unnamed JIT code');
    expect(groupOf('node', 'v8::internal::Heap::Scavenge')).toBe('V8 garbage collector');
    expect(groupOf('libc.so.6', '_int_malloc')).toBe('memory allocation');
    expect(groupOf('workerd', 'TCMallocInternalDeleteArraySized')).toBe('memory allocation');
    expect(groupOf('libc.so.6', '__GI___writev')).toBe('libc');
    expect(groupOf('workerd', 'kj::EventLoop::turn')).toBe('runtime native code');
  });

  it('scales the shares to the CPU per request the bench measured', () => {
    const s = split(
      'x',
      [
        { pct: 50, dso: '[kernel.kallsyms]', sym: 'a' },
        { pct: 30, dso: '[JIT] tid 1', sym: 'JS:*f file:///app.js:1:1' },
        { pct: 20, dso: '[kernel.kallsyms]', sym: 'b' },
      ],
      1000,
      20_000,
    );
    expect(s.cpuUsPerRequest).toBe(20);
    expect(s.groups).toEqual([
      ['kernel', 14],
      ['framework and app JavaScript', 6],
    ]);
    expect(s.top[0]).toEqual(['a (kernel)', 10]);
  });

  it("takes the median of each group over a row's rounds, and sets the frameworks side by side", () => {
    const window = (framework: string, cpu: number, js: number) => ({
      name: { runtime: 'node', framework, scenario: 'text' },
      split: split(
        'x',
        [
          { pct: (js / cpu) * 100, dso: '[JIT] tid 1', sym: 'JS:*f file:///a.js:1:1' },
          { pct: 100 - (js / cpu) * 100, dso: '[kernel.kallsyms]', sym: 'k' },
        ],
        1,
        cpu,
      ),
    });
    const rows = medianOfRounds([window('raw', 10, 1), window('rove', 12, 2), window('rove', 11, 1), window('rove', 20, 3)]);
    const rove = rows.find((r) => r.framework === 'rove')!;
    expect(rove.rounds).toBe(3);
    expect(rove.cpu).toBe(12);
    expect(rove.groups.get('framework and app JavaScript')).toBeCloseTo(2);
    const table = sideBySide(rows);
    expect(table).toContain('node · text');
    expect(table).toContain('| | rove (3) | raw (1) |');
    expect(table).toContain('| CPU | 12.0 | 10.0 |');
  });
});
