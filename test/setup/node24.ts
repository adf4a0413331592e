// vitest globalSetup: install Node 24 (scripts/install-node24.sh) once before the files that run on it.
// A failed install (no registry, another platform) leaves those runs to skip, or to fail in CI.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../dev/proc.ts';
import { node24Bin } from '../conformance/node24.ts';

export default function setup(): void {
  if (node24Bin() !== undefined) return;
  const run = spawnSync('bash', [join(ROOT, 'scripts/install-node24.sh')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) console.warn(`install-node24 failed:\n${run.stderr}`);
}
