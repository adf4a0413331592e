import { describe, expect, it } from 'vitest';
import { COLD_STARTS, FRAMEWORKS, PROFILES, parseFlags, RUNTIMES, resolveConfig } from '../../bench/lib/config.ts';
import { emptyRow } from '../../bench/lib/result.ts';
import { plannedRows } from '../../bench/lib/runner.ts';
import { SCENARIO_IDS } from '../../bench/lib/scenarios.ts';

const resolve = (argv: string[]) => resolveConfig(parseFlags(argv), SCENARIO_IDS);

describe('bench config', () => {
  it('with no flag, runs the report: every runtime and scenario, rove, hono and raw, 3 rounds in fresh processes, cold starts last', () => {
    const c = resolve([]);
    expect(c.profile).toBe('report');
    expect({ connections: c.connections, pipelining: c.pipelining, durationS: c.durationS, warmupS: c.warmupS }).toEqual(PROFILES.report);
    expect(c.rounds).toBe(3);
    expect(c.fresh).toBe(true);
    expect(c.runtimes).toEqual([...RUNTIMES]);
    expect(c.frameworks).toEqual(['rove', 'hono', 'raw']);
    expect(c.scenarios).toEqual([...SCENARIO_IDS]);
    expect(c.out).toBe('docs/benchmarks/results.json');
    expect(c.waitQuietS).toBe(60);
    expect(c.coldStarts).toBe(COLD_STARTS);
  });

  it('keeps the other profiles, their output under tmp/, one process per target unless --fresh, and rove-fs on request', () => {
    const c = resolve(['--profile', 'default']);
    expect({ connections: c.connections, pipelining: c.pipelining, durationS: c.durationS, warmupS: c.warmupS }).toEqual(PROFILES.default);
    expect(c).toMatchObject({ out: 'tmp/bench/default.json', fresh: false, rounds: 3 });
    expect(resolve(['--profile', 'quick'])).toMatchObject({ out: 'tmp/bench/quick.json', fresh: false, rounds: 1, coldStarts: 0 });
    expect(resolve(['--profile', 'quick', '--fresh']).fresh).toBe(true);
    expect(resolve(['--no-fresh']).fresh).toBe(false);
    expect(resolve(['--cold-starts', '0']).coldStarts).toBe(0);
    // Cold starts only for the full report run, unless asked for.
    expect(resolve(['--profile', 'default']).coldStarts).toBe(0);
    expect(resolve(['--scenarios', 'static']).coldStarts).toBe(0);
    expect(resolve(['--runtimes', 'node']).coldStarts).toBe(0);
    expect(resolve(['--frameworks', 'rove']).coldStarts).toBe(0);
    expect(resolve(['--scenarios', 'static', '--cold-starts', '5']).coldStarts).toBe(5);
    expect(resolve(['--frameworks', 'all']).frameworks).toEqual([...FRAMEWORKS]);
    expect(resolve(['--frameworks', 'rove,rove-fs']).frameworks).toEqual(['rove', 'rove-fs']);
  });

  it('never waits for a quiet machine in the quick profile unless told to', () => {
    expect(resolve(['--profile', 'quick']).waitQuietS).toBe(0);
    expect(resolve(['--profile', 'quick', '--wait-quiet', '5']).waitQuietS).toBe(5);
    expect(resolve(['--wait-quiet=0']).waitQuietS).toBe(0);
  });

  it('takes the load settings of the chosen profile', () => {
    expect(resolve(['--profile', 'quick'])).toMatchObject({ connections: 10, pipelining: 1, durationS: 1, warmupS: 0.5 });
    expect(resolve(['--profile=seed'])).toMatchObject({ connections: 500, pipelining: 10, durationS: 30, warmupS: 5 });
  });

  it('lets an explicit flag override the profile, in either flag form', () => {
    const c = resolve(['--profile', 'seed', '--connections', '50', '--duration=2.5', '--warmup', '0', '--pipelining=4', '--rounds', '3']);
    expect(c).toMatchObject({ profile: 'seed', connections: 50, pipelining: 4, durationS: 2.5, warmupS: 0, rounds: 3 });
  });

  it('keeps the canonical order of listed ids whatever order the flag used', () => {
    const c = resolve(['--runtimes', 'workerd,node', '--frameworks', 'raw,rove', '--scenarios', 'echo,test']);
    expect(c.runtimes).toEqual(['node', 'workerd']);
    expect(c.frameworks).toEqual(['rove', 'raw']);
    expect(c.scenarios).toEqual(['test', 'echo']);
  });

  it('treats "all" as every id', () => {
    expect(resolve(['--runtimes', 'all']).runtimes).toEqual([...RUNTIMES]);
  });

  it('refuses unknown flags, ids and profiles, and bad numbers', () => {
    expect(() => parseFlags(['--conections', '5'])).toThrow(/unknown flag --conections/);
    expect(() => parseFlags(['--duration'])).toThrow(/needs a value/);
    expect(() => parseFlags(['--duration', '--rounds', '2'])).toThrow(/needs a value/);
    expect(() => parseFlags(['--connections', '0'])).toThrow(/positive/);
    expect(() => parseFlags(['--rounds', '1.5'])).toThrow(/integer/);
    expect(() => parseFlags(['stray'])).toThrow(/unexpected argument/);
    expect(() => resolve(['--runtimes', 'node,spidermonkey'])).toThrow(/unknown runtime "spidermonkey"/);
    expect(() => resolve(['--scenarios', 'nope'])).toThrow(/unknown scenario "nope"/);
    expect(() => resolve(['--profile', 'huge'])).toThrow(/unknown profile "huge"/);
  });

  it('plans every runtime × scenario × framework that can express it, minus rows a resumed run already has', () => {
    const c = resolve(['--runtimes', 'node,deno', '--scenarios', 'test,listener', '--frameworks', 'rove,raw', '--resume']);
    expect(c.resume).toBe(true);
    const ids = (rows: ReturnType<typeof plannedRows>) => rows.map((p) => `${p.runtime}/${p.framework}/${p.scenario.id}`);
    expect(ids(plannedRows(c))).toEqual(['node/rove/test', 'node/raw/test', 'node/rove/listener', 'deno/rove/test', 'deno/raw/test', 'deno/rove/listener']);
    const done = [emptyRow('node', 'rove', 'test', null), emptyRow('deno', 'rove', 'listener', null)];
    expect(ids(plannedRows(c, done))).toEqual(['node/raw/test', 'node/rove/listener', 'deno/rove/test', 'deno/raw/test']);
  });

  it('passes --out, --report and --cpu-prof through', () => {
    const c = resolve(['--out', 'x/run.json', '--report', 'y.json', '--cpu-prof', 'prof']);
    expect(c).toMatchObject({ out: 'x/run.json', report: 'y.json', cpuProf: 'prof' });
    expect(parseFlags(['-h']).help).toBe(true);
  });

  it('places PostgreSQL with the load generator unless --db-cpu says otherwise', () => {
    expect(resolve([]).dbCpu).toBe('load');
    expect(resolve(['--db-cpu', 'server']).dbCpu).toBe('server');
    expect(resolve(['--db-cpu=off']).dbCpu).toBe('off');
    expect(() => resolve(['--db-cpu', 'anywhere'])).toThrow(/--db-cpu takes load, server or off/);
  });
});
