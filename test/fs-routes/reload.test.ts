// The hot-reload rules, against an in-memory loader: no files, no timing
// beyond the watcher's debounce. test/fs-routes/hot-reload.test.ts runs the
// same cases against real files on Node and Deno.
import { describe, expect, it } from 'vitest';
import { fileRoutes } from '../../src/fs-routes/index.ts';
import type { ListedFile, RouteLoader } from '../../src/fs-routes/loader.ts';
import type { RouteLoadError } from '../../src/fs-routes/mount.ts';
import type { RouteModule } from '../../src/fs-routes/table.ts';
import { App, type Context } from '../../src/index.ts';

/** Files as modules; `set` with an Error makes the import fail, as a syntax error would. */
class MemoryLoader implements RouteLoader {
  readonly root = 'memory:routes';
  files = new Map<string, { stamp: number; module: RouteModule | Error }>();
  loads: { file: string; version: number }[] = [];
  private changed: (() => void) | undefined;
  private stamp = 0;

  set(file: string, module: RouteModule | Error): void {
    this.files.set(file, { stamp: ++this.stamp, module });
    this.changed?.();
  }
  delete(file: string): void {
    this.files.delete(file);
    this.changed?.();
  }
  async list(): Promise<ListedFile[]> {
    return [...this.files].map(([file, f]) => ({ file, stamp: String(f.stamp) }));
  }
  async load(file: string, version: number): Promise<RouteModule> {
    this.loads.push({ file, version });
    const f = this.files.get(file);
    if (f === undefined) throw new Error(`${file}: gone`);
    if (f.module instanceof Error) throw f.module;
    return f.module;
  }
  watch(changed: () => void): () => void {
    this.changed = changed;
    return () => (this.changed = undefined);
  }
}

const text = (body: string) => ({ GET: (c: Context) => c.text(body) });

async function body(app: App<any>, path: string): Promise<string> {
  const res = await app.fetch(new Request(`http://x${path}`));
  const text = await res.text();
  return res.status === 404 ? '404' : `${res.status} ${text}`;
}

/** Wait until the app answers `want` (the watcher debounces, then re-imports). */
async function until(app: App<any>, path: string, want: string): Promise<void> {
  const deadline = Date.now() + 2000;
  let got = '';
  while (Date.now() < deadline) {
    if ((got = await body(app, path)) === want) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(got).toBe(want);
}

async function setup() {
  const loader = new MemoryLoader();
  loader.set('index.ts', text('home v1'));
  loader.set('_lib/db.ts', { connect: () => 1 });
  const app = new App();
  const events: { file?: string; route?: string; error: unknown }[] = [];
  app.on('route:error', (e) => void events.push(e.metadata));
  const reported: RouteLoadError[] = [];
  const stop = new AbortController();
  await fileRoutes(app, loader, { watch: true, signal: stop.signal, onError: (e) => reported.push(e) });
  return { loader, app, events, reported, stop };
}

describe('fs-routes hot reload', () => {
  it('a changed module is re-imported as a fresh version', async () => {
    const { loader, app, stop } = await setup();
    expect(await body(app, '/')).toBe('200 home v1');
    loader.set('index.ts', text('home v2'));
    await until(app, '/', '200 home v2');
    expect(loader.loads).toEqual([
      { file: 'index.ts', version: 0 },
      { file: 'index.ts', version: 1 },
    ]);
    stop.abort();
  });

  it('a new file adds its route, a deleted file removes it', async () => {
    const { loader, app, stop } = await setup();
    loader.set('users/[id].ts', { GET: (c: Context) => c.text(`user ${c.req.param('id')}`) });
    await until(app, '/users/7', '200 user 7');
    loader.delete('users/[id].ts');
    await until(app, '/users/7', '404');
    expect(await body(app, '/')).toBe('200 home v1');
    stop.abort();
  });

  it('a broken edit keeps the last good version and emits route:error with the file and the error', async () => {
    const { loader, app, events, reported, stop } = await setup();
    const syntax = new SyntaxError('Unexpected token }');
    loader.set('index.ts', syntax);
    await new Promise((r) => setTimeout(r, 100));
    expect(await body(app, '/')).toBe('200 home v1');
    expect(events).toEqual([{ file: 'index.ts', route: '/', error: syntax }]);
    expect(reported).toEqual([{ file: 'index.ts', error: syntax, kept: true }]);
    // An unrelated change does not report the same broken version again.
    loader.set('other.ts', text('other'));
    await until(app, '/other', '200 other');
    expect(events).toHaveLength(1);
    // Fixed: the new version serves.
    loader.set('index.ts', text('home v3'));
    await until(app, '/', '200 home v3');
    stop.abort();
  });

  it('an edit that leaves no handler is refused the same way', async () => {
    const { loader, app, events, stop } = await setup();
    loader.set('index.ts', { helper: () => 1 });
    await new Promise((r) => setTimeout(r, 100));
    expect(await body(app, '/')).toBe('200 home v1');
    expect(events).toHaveLength(1);
    expect(String(events[0].error)).toContain('index.ts: exports no handler');
    stop.abort();
  });

  it('a new broken file adds nothing and is reported; a new file that clashes keeps the previous table', async () => {
    const { loader, app, events, stop } = await setup();
    loader.set('broken.ts', new SyntaxError('nope'));
    await new Promise((r) => setTimeout(r, 100));
    expect(events.map((e) => e.file)).toEqual(['broken.ts']);
    expect(await body(app, '/broken')).toBe('404');
    loader.set('index.js', text('clash'));
    await new Promise((r) => setTimeout(r, 100));
    expect(events.map((e) => e.file)).toEqual(['broken.ts', 'index.js, index.ts']);
    expect(await body(app, '/')).toBe('200 home v1');
    loader.delete('index.js');
    loader.set('index.ts', text('home v2'));
    await until(app, '/', '200 home v2');
    stop.abort();
  });

  it('a broken routes directory at startup is an error naming the file', async () => {
    const loader = new MemoryLoader();
    loader.set('ok.ts', text('ok'));
    loader.set('users/[id].ts', new SyntaxError('Unexpected end of input'));
    const app = new App();
    await expect(fileRoutes(app, loader)).rejects.toThrow('users/[id].ts: Unexpected end of input');
    expect(app.routeList).toEqual([]);
  });

  it('aborting the signal stops watching', async () => {
    const { loader, app, stop } = await setup();
    stop.abort();
    loader.set('index.ts', text('home v2'));
    await new Promise((r) => setTimeout(r, 100));
    expect(await body(app, '/')).toBe('200 home v1');
  });

  it('without watch (and not in dev mode), the directory is read once', async () => {
    const loader = new MemoryLoader();
    loader.set('index.ts', text('v1'));
    const app = await fileRoutes(new App(), loader);
    loader.set('index.ts', text('v2'));
    await new Promise((r) => setTimeout(r, 60));
    expect(await body(app, '/')).toBe('200 v1');
  });
});
