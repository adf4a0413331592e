// The first app a user scaffolds, run as its README says. Rove is packed the way `npm publish`
// packs it (prepack builds and writes the published package.json, postpack restores), in a copy
// of the repository so that this repo's dist/ and package.json stay as other test files read
// them. create-rove writes the app from the tarball, one `npm install` brings every tool, then
// each start:* script runs through npm with PORT and HOST, and is stopped by its process group.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, freePort, ROOT, startChild, stopChild } from '../../dev/proc.ts';
import { BACKUP, REPOSITORY_ONLY } from '../../scripts/pack-manifest.ts';
import { ready } from './ready.ts';

const SCRIPTS = ['start:node', 'start:deno', 'start:bun', 'start:deploy', 'start:workers'];

let work: string;
let stage: string;
let app: string;
let tarball: string;
let repoManifest: string;
let packedManifest: Record<string, unknown>;

function run(bin: string, args: string[], cwd: string): string {
  try {
    return execFileSync(bin, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`${bin} ${args.join(' ')} failed in ${cwd}:\n${e.stderr ?? ''}\n${e.stdout ?? ''}`);
  }
}

/** run(), without blocking the test's thread: a long command would starve vitest's messages. */
function runAsync(bin: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${bin} ${args.join(' ')} failed in ${cwd}:\n${stderr}\n${stdout}`));
      else resolve(stdout);
    });
  });
}

/** The repository as a fresh clone has it (tracked and new files, not ignored ones), sharing node_modules. */
function stageRepository(to: string): void {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ROOT).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(ROOT, file), join(to, file));
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(to, 'node_modules'));
}

beforeAll(() => {
  work = mkdtempSync(join(realpathSync(tmpdir()), 'rove-scaffold-'));
  stage = join(work, 'repo');
  stageRepository(stage);
  repoManifest = readFileSync(join(stage, 'package.json'), 'utf8');
  // With its lifecycle scripts (no --ignore-scripts): prepack builds dist/ and strips package.json.
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], stage)) as { filename: string }[];
  tarball = join(work, packed.filename);
  packedManifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], work));
  app = join(work, 'my-app');
  run(process.execPath, [join(ROOT, 'create-rove/index.js'), app, '--yes', '--rove', tarball], work);
  // From the npm cache (the registry may be unreachable), as test/package/packed.test.ts does.
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('ships a package.json without the repository-only scripts and devDependencies, all else as in the repo', () => {
    const repo = JSON.parse(repoManifest) as Record<string, unknown>;
    expect(Object.keys(repo.scripts as object)).toContain('prepack');
    expect(packedManifest.scripts).toBeUndefined();
    expect(packedManifest.devDependencies).toBeUndefined();
    for (const field of REPOSITORY_ONLY) delete repo[field];
    expect(packedManifest).toEqual(repo);
  });

  it("puts the repository's package.json back, byte for byte, and leaves no backup", () => {
    expect(readFileSync(join(stage, 'package.json'), 'utf8')).toBe(repoManifest);
    expect(existsSync(join(stage, BACKUP))).toBe(false);
  });
});

describe('the scaffolded app', () => {
  it('has deno and bun from npm, at the versions this repository uses', () => {
    const root = JSON.parse(repoManifest).devDependencies;
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    expect(pkg.devDependencies.deno).toBe(root.deno);
    expect(pkg.devDependencies.bun).toBe(root.bun);
    for (const bin of ['deno', 'bun', 'wrangler', 'tsx']) expect(existsSync(join(app, 'node_modules/.bin', bin)), bin).toBe(true);
  });

  it('npm test runs its tests on Node, then inside workerd, and they pass; so does the type check', async () => {
    const out = await runAsync('npm', ['test'], app);
    expect(out).toMatch(/test\/app\.test\.ts \(5 tests\)/);
    expect(out).toMatch(/test\/workerd\/app\.test\.ts \(3 tests\)/);
    await runAsync('npm', ['run', 'typecheck'], app);
  }, 120_000);

  it('opens Deno KV under deno run without a flag: its deno.json asks for the unstable API', async () => {
    writeFileSync(
      join(app, 'kv-check.ts'),
      "const kv = await Deno.openKv(':memory:');\nawait kv.set(['a'], 1);\nconsole.log((await kv.get(['a'])).value);\nkv.close();\n",
    );
    expect((await runAsync('npx', ['deno', 'run', 'kv-check.ts'], app)).trim()).toBe('1');
    rmSync(join(app, 'kv-check.ts'));
  }, 60_000);

  it('has one start:* script per runtime', () => {
    const scripts = Object.keys(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).scripts).filter((s) => s.startsWith('start:'));
    expect(scripts.sort()).toEqual(SCRIPTS.slice().sort());
  });
});

/** Whether a TCP connection to host:port is refused (nothing listens there). */
function refused(host: string, port: number): Promise<boolean> {
  return new Promise((ok) => {
    const socket = connect(port, host);
    socket.on('connect', () => {
      socket.destroy();
      ok(false);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => ok(e.code === 'ECONNREFUSED'));
  });
}

/** Polls until nothing listens on 127.0.0.1:port: a runtime's helpers may outlive npm by a moment. */
async function released(port: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await refused('127.0.0.1', port))) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

describe.each(SCRIPTS)('npm run %s', (script) => {
  let child: Child;
  let port: number;
  let url: string;

  beforeAll(async () => {
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), HOST: '127.0.0.1', DENO_NO_UPDATE_CHECK: '1', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' };
    // npm, its sh and the runtime (and wrangler's workerd) share the process group stopChild signals.
    child = startChild('npm', ['run', script], env, app);
    // wrangler dev bundles and starts workerd first: slower on a busy machine.
    await ready(child, url, script, 120_000);
  }, 150_000);

  afterAll(async () => {
    if (child) await stopChild(child);
  });

  it('answers GET / on PORT', async () => {
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hello: 'world' });
  });

  it('answers /static/hello.txt from public/ through the app, and public/ at no other path', async () => {
    const res = await fetch(`${url}/static/hello.txt`);
    expect(res.status).toBe(200);
    // The app's Cache-Control: on Workers the platform's own would be `public, max-age=0, must-revalidate`.
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await res.text()).toBe(readFileSync(join(app, 'public/hello.txt'), 'utf8'));
    const direct = await fetch(`${url}/hello.txt`);
    await direct.body?.cancel();
    expect(direct.status).toBe(404);
  });

  it('listens on HOST only', async () => {
    // 127.0.0.2 is loopback too: a server bound to 0.0.0.0 would answer there.
    expect(await refused('127.0.0.2', port)).toBe(true);
  });

  it('stops with its process group, leaving the port free', async () => {
    await stopChild(child);
    expect(child.exited).toBe(true);
    expect(await released(port)).toBe(true);
  });
});

describe('npx rove parity in the app scaffolded from the packed tarball', () => {
  it('runs its requests.http on all five runtimes and finds no unexplained difference, in under a minute', () => {
    const out = join(work, 'parity.json');
    const t0 = Date.now();
    // Exit code 0: every difference is a known platform one (run() throws on any other code).
    run('npx', ['rove', 'parity', '--json', out], app);
    expect(Date.now() - t0).toBeLessThan(60_000);
    const result = JSON.parse(readFileSync(out, 'utf8')) as { runtimes: string[]; failed: Record<string, string>; unexplained: number };
    expect(result.failed).toEqual({});
    expect(result.runtimes).toHaveLength(5);
    expect(result.unexplained).toBe(0);
  }, 120_000);
});
