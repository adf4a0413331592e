// The bench's --processes and --db-pool flags and what they do to a target's launch.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFlags, resolveConfig } from '../../bench/lib/config.ts';
import { SCENARIO_IDS } from '../../bench/lib/scenarios.ts';
import { launchFor } from '../../bench/lib/targets.ts';

const work = mkdtempSync(join(tmpdir(), 'rove-bench-flags-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('bench --processes and --db-pool', () => {
  it('parse, default to 1 and 10, and refuse what is not a positive integer', () => {
    const c = resolveConfig(parseFlags(['--processes', '2', '--db-pool', '4']), SCENARIO_IDS);
    expect([c.processes, c.dbPool]).toEqual([2, 4]);
    const d = resolveConfig(parseFlags([]), SCENARIO_IDS);
    expect([d.processes, d.dbPool]).toEqual([1, 10]);
    expect(() => parseFlags(['--processes', '1.5'])).toThrow(/integer/);
    expect(() => parseFlags(['--db-pool', '0'])).toThrow(/positive/);
  });

  it('give rove (only) its process count: serve({ processes }) on node, deno, bun; deno serve --parallel on deno-deploy', () => {
    const base = { variant: 'default' as const, port: 1, workDir: work, processes: 2 };
    expect(launchFor({ ...base, runtime: 'node', framework: 'rove' }).env.BENCH_PROCESSES).toBe('2');
    expect(launchFor({ ...base, runtime: 'node', framework: 'hono' }).env.BENCH_PROCESSES).toBeUndefined();
    expect(launchFor({ ...base, runtime: 'deno', framework: 'rove' }).args).toContain('--allow-run');
    const deploy = launchFor({ ...base, runtime: 'deno-deploy', framework: 'rove' });
    expect(deploy.args).toContain('--parallel');
    expect(deploy.env.DENO_JOBS).toBe('2');
  });

  it('run node targets from an esbuild bundle (the worker-pool variant and rove-fs through tsx)', () => {
    for (const framework of ['rove', 'hono', 'raw'] as const) {
      const l = launchFor({ runtime: 'node', framework, variant: 'default', port: 1240, workDir: work });
      expect(l.args).not.toContain('tsx');
      expect(l.args.at(-1)).toBe(join(work, `node-${framework}-default-1240.mjs`));
      expect(readFileSync(l.args.at(-1)!, 'utf8')).not.toMatch(/^import .* from ["'](\.|src|adapters)/m);
    }
    expect(launchFor({ runtime: 'node', framework: 'rove', variant: 'workers', port: 1241, workDir: work }).args.slice(0, 2)).toEqual(['--import', 'tsx']);
    expect(launchFor({ runtime: 'node', framework: 'rove-fs', variant: 'default', port: 1242, workDir: work }).args.slice(0, 2)).toEqual(['--import', 'tsx']);
  });

  it('start workerd DB targets from their own entry, with nodejs_compat and loopback allowed', () => {
    const l = launchFor({ runtime: 'workerd', framework: 'raw', variant: 'db', port: 1234, workDir: work });
    const config = readFileSync(l.args[1]!, 'utf8');
    expect(config).toContain('"nodejs_compat"');
    expect(config).toContain('allow = ["public", "private", "local"]');
    expect(config).toContain('globalOutbound = "net"');
    const plain = launchFor({ runtime: 'workerd', framework: 'raw', variant: 'default', port: 1235, workDir: work });
    expect(readFileSync(plain.args[1]!, 'utf8')).not.toContain('globalOutbound');
  });
});
