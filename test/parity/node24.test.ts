// `rove parity` run by Node 24: its Node row is then Node 24 (the command starts the Node entry
// with the Node it runs on), beside Deno, Bun, deno serve and wrangler dev.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ParityResult } from '../../adapters/cli/parity/run.ts';
import { ROOT } from '../../dev/proc.ts';
import { node24OrSkip } from '../conformance/node24.ts';
import { unexplained } from './unexplained.ts';

const node24 = node24OrSkip();
const dir = mkdtempSync(join(tmpdir(), 'rove-parity-node24-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it.skipIf(node24 === undefined)(
  'parity > examples/hello, every route, with its Node row on Node 24: nothing unexplained',
  async () => {
    const out = join(dir, 'hello.json');
    const args = ['--import', 'tsx', 'adapters/cli/bin.ts', 'parity', '--routes', '--app', 'examples/hello/app.ts'];
    args.push('--node', 'examples/hello/node.ts', '--deno', 'examples/hello/deno.ts', '--bun', 'examples/hello/bun.ts', '--deploy', 'examples/hello/deploy.ts');
    args.push('--node-args=--conditions=source --import tsx', '--json', out);
    const code = await new Promise<number | null>((resolve) => {
      execFile(node24!, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 }, (error) =>
        resolve(error ? ((error as { code?: number }).code ?? 1) : 0),
      );
    });
    const result = JSON.parse(readFileSync(out, 'utf8')) as ParityResult;
    expect(result.failed).toEqual({});
    expect(result.runtimes).toHaveLength(5);
    expect(unexplained(result.requests)).toEqual([]);
    expect(code).toBe(0);
  },
  120_000,
);
