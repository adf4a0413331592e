// Machine and version facts recorded with every run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, type as osType, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT, resolveBin } from '../../dev/proc.ts';
import type { Meta } from './result.ts';

function packageVersion(dir: string): string {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

function binVersion(name: string, pattern: RegExp): string {
  try {
    const out = execFileSync(resolveBin(name), ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
    return pattern.exec(out)?.[1] ?? out.trim().split('\n')[0]!;
  } catch {
    return 'unavailable';
  }
}

/** The commit measured, marked when the working tree had uncommitted changes under src/ or adapters/. */
export function gitRevision(dir = ROOT): string {
  try {
    const opts = { cwd: dir, encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'] };
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], opts).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'adapters', 'examples/bench'], opts).trim() !== '';
    return dirty ? `${head}+uncommitted` : head;
  } catch {
    return 'unknown';
  }
}

/**
 * The commit the run measured and whether the tree differed from it, read before the run writes
 * anything: its own output (docs/benchmarks/, tmp/) does not count.
 */
export function gitState(dir = ROOT): { commit: string; dirty: boolean } | undefined {
  try {
    const opts = { cwd: dir, encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'] };
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], opts).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--', '.', ':!docs/benchmarks', ':!tmp'], opts).trim();
    return { commit, dirty: status !== '' };
  } catch {
    return undefined;
  }
}

function osName(): string {
  try {
    const m = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (m) return `${m[1]}, ${osType()} ${release()}`;
  } catch {
    // not Linux-like
  }
  return `${osType()} ${release()}`;
}

/** `baseline`: the --baseline tree, recorded as the version `rove-baseline`. */
export function collectMeta(command?: string, baseline?: string): Meta {
  const cpu = cpus();
  const git = gitState();
  return {
    date: new Date().toISOString(),
    host: {
      cpus: cpu.length,
      cpuModel: cpu[0]?.model.trim() ?? 'unknown',
      memGiB: Math.round(totalmem() / 2 ** 30),
      os: osName(),
    },
    versions: {
      node: process.versions.node,
      deno: binVersion('deno', /deno (\S+)/),
      bun: binVersion('bun', /(\S+)/),
      workerd: binVersion('workerd', /workerd (\S+)/),
      rove: `${packageVersion(ROOT)} (${gitRevision()})`,
      ...(baseline !== undefined ? { 'rove-baseline': `${packageVersion(baseline)} (${gitRevision(baseline)})` } : {}),
      hono: packageVersion(join(ROOT, 'node_modules/hono')),
      '@hono/node-server': packageVersion(join(ROOT, 'node_modules/@hono/node-server')),
      zod: packageVersion(join(ROOT, 'node_modules/zod')),
      autocannon: packageVersion(join(ROOT, 'node_modules/autocannon')),
      esbuild: binVersion('esbuild', /(\S+)/),
      tsx: packageVersion(join(ROOT, 'node_modules/tsx')),
    },
    ...(command ? { command } : {}),
    ...(git ? { git } : {}),
  };
}
