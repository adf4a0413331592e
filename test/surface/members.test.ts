// Every public member the types of App, Context and RoveRequest show works at run time, on
// every runtime, with the core entry imported and nothing else (no side-effect import).
// The member list comes from dist/src/*.d.ts (`npm test` builds it first; for a run of this
// file alone, `npm run build`). Inside workerd: test/workerd/surface.test.ts.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveBin } from '../../dev/proc.ts';
import { publicMembers } from './members.ts';
import { PROBES, probe } from './probe.ts';

const CLASSES = [
  ['core/app', 'App'],
  ['core/context', 'Context'],
  ['core/request', 'RoveRequest'],
] as const;

/** The declaration file of `src/<name>.ts`, refused when missing or older than its source. */
function declarations(name: string): string {
  const dts = join(ROOT, 'dist/src', `${name}.d.ts`);
  const src = join(ROOT, 'src', `${name}.ts`);
  if (!existsSync(dts)) throw new Error(`${dts} is missing: run \`npm run build\` first`);
  if (statSync(dts).mtimeMs < statSync(src).mtimeMs) throw new Error(`${dts} is older than ${src}: run \`npm run build\` first`);
  return dts;
}

/** Every member answered 'ok': the expected table, so a failure shows which member and why. */
function allOk(results: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(results).map((name) => [name, 'ok']));
}

const run = promisify(execFile);

/** The probe's results from a run of run-probe.ts on another runtime. */
async function probeOn(bin: string, args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(resolveBin(bin), [...args, 'test/surface/run-probe.ts'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, string>;
}

describe('the public surface of App, Context and RoveRequest', () => {
  it('has a probe for every public member the declarations show, and none for a member they lack', () => {
    const members = CLASSES.flatMap(([file, name]) => publicMembers(declarations(file), name));
    expect(members.length).toBeGreaterThan(50);
    expect(Object.keys(PROBES).sort()).toEqual(members);
  });

  it('works on Node with only the core entry imported', async () => {
    const results = await probe();
    expect(results).toEqual(allOk(results));
  });

  it.each([
    ['Deno', 'deno', ['run', '-A']],
    ['Bun', 'bun', []],
  ])('works on %s with only the core entry imported', async (_name, bin, args) => {
    const results = await probeOn(bin, args);
    expect(Object.keys(results).sort()).toEqual(Object.keys(PROBES).sort());
    expect(results).toEqual(allOk(results));
  });
});
