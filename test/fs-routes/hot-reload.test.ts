// Hot reload against real files: a dev server per runtime watches a routes
// directory while the test edits it. Node (tsx) and Deno re-import a changed
// module by URL with ?v=N; Bun drops its cache entry first.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, start } from '../conformance/servers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe.each(['node', 'deno', 'bun'] as const)('fs-routes hot reload on %s', (runtime) => {
  let dir: string;
  let server: Running;

  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  const get = async (path: string) => {
    const res = await fetch(server.url + path);
    return `${res.status} ${res.status === 404 ? '' : await res.text()}`.trim();
  };
  /** Poll until the server answers `want`: the watcher, its debounce and the import take a moment. */
  const until = async (path: string, want: string) => {
    const deadline = Date.now() + 8000;
    let got = '';
    while (Date.now() < deadline) {
      if ((got = await get(path)) === want) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(got, `${server.child.output()}`).toBe(want);
  };

  beforeAll(async () => {
    // Inside the repo so that .ts files are ES modules on Node (package.json "type": "module").
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    dir = mkdtempSync(join(ROOT, 'tmp', `fs-routes-hot-${runtime}-`));
    write('index.ts', `export const GET = (c) => c.text('home v1');\n`);
    write('_lib/helper.ts', `export const x = 1;\n`);
    server = await start(runtime, 'test/fs-routes/fixture', '/', { ROUTES_DIR: dir });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the directory as it was at startup', async () => {
    expect(await get('/')).toBe('200 home v1');
  });

  it('a changed module is re-imported', async () => {
    write('index.ts', `export const GET = (c) => c.text('home v2');\n`);
    await until('/', '200 home v2');
  });

  it('a new file adds its route', async () => {
    write('users/[id].ts', `export function GET(c) { return c.text('user ' + c.req.param('id')); }\n`);
    await until('/users/5', '200 user 5');
  });

  it('a deleted file removes its route', async () => {
    unlinkSync(join(dir, 'users/[id].ts'));
    await until('/users/5', '404');
    expect(await get('/')).toBe('200 home v2');
  });

  it('a broken edit keeps the last good version and emits route:error with the file and the error', async () => {
    write('index.ts', `export const GET = (c) => c.text('home v3';\n`);
    const deadline = Date.now() + 8000;
    let errors: { file: string; route: string; message: string }[] = [];
    while (Date.now() < deadline && errors.length === 0) {
      errors = await (await fetch(`${server.url}/__route-errors`)).json();
      if (errors.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: 'index.ts', route: '/' });
    expect(errors[0].message.length).toBeGreaterThan(0);
    expect(await get('/')).toBe('200 home v2');
  });

  it('the fixed module serves again', async () => {
    write('index.ts', `export const GET = (c) => c.text('home v4');\n`);
    await until('/', '200 home v4');
    expect(await (await fetch(`${server.url}/__route-errors`)).json()).toHaveLength(1);
  });
});
