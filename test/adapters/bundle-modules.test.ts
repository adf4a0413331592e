// Cold starts: an app that does not use a feature does not load it, bundled or not. The two-route
// app (bench/size/rove.ts) served with serve(app) is bundled for each runtime the way users would,
// and its metafile must hold no process-group code, no `ws`, and on Deno, Bun and Workers no node:
// import at all (on Deno the first one starts the Node compatibility layer); on Node, no thread-pool
// code (node:worker_threads, node:os, node:module). The same app with processGroup(), webSockets and
// threads passed in does hold them: the switch is the value passed in.
import type { BuildOptions, Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOf, externalImports, ROOT, WORKERS_BUILD as WORKERS } from '../../dev/bundle.ts';

type Runtime = 'node' | 'deno' | 'bun';

/** How a user bundles for each runtime: Node as a Node program, Deno and Bun with their own condition. */
const OPTIONS: Record<Runtime, BuildOptions> = {
  node: { platform: 'node' },
  deno: { platform: 'neutral', conditions: ['deno'], mainFields: ['module', 'main'], external: ['node:*'] },
  bun: { platform: 'neutral', conditions: ['bun'], mainFields: ['module', 'main'], external: ['node:*'] },
};

/** The two-route app of bench/size/rove.ts, served; `opted`: with a process group (and, on Node, WebSockets and threads). */
function entry(runtime: Runtime, opted: boolean): string {
  const node = opted && runtime === 'node';
  return [
    "import { App } from 'rove';",
    `import { serve } from 'rove/${runtime}';`,
    opted ? `import { processGroup } from 'rove/${runtime}/processes';` : '',
    node ? "import { webSockets } from 'rove/node/websocket';" : '',
    node ? "import { threads } from 'rove/node/threads';" : '',
    'const app = new App();',
    "app.get('/', (c) => c.json({ hello: 'world' }));",
    "app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));",
    `serve(app${opted ? `, { processes: processGroup(2)${node ? ', webSockets, threads' : ''} }` : ''});`,
  ].join('\n');
}

async function bundled(runtime: Runtime, opted: boolean): Promise<Metafile> {
  const stdin = { contents: entry(runtime, opted), resolveDir: ROOT, loader: 'ts' as const, sourcefile: `${runtime}.ts` };
  return (await bundleOf({ stdin, minify: true, ...OPTIONS[runtime] })).metafile;
}

const GROUP = /adapters\/(shared|node|deno|bun)\/processes\.(ts|js)$/;
const WS = /node_modules\/ws\//;
const THREADS = /adapters\/(node\/threads|node\/thread-entry|shared\/web-threads)\.(ts|js)$/;
/** What only Node's thread support imports. */
const THREAD_MODULES = ['node:worker_threads', 'node:os', 'node:module'];
const inputs = (m: Metafile) => Object.keys(m.inputs);
const nodeImports = (m: Metafile) => externalImports(m).filter((p) => p.startsWith('node:'));

describe.each(['node', 'deno', 'bun'] as const)('the two-route app bundled for %s', (runtime) => {
  it(`serve(app) holds no process group, no ws${runtime === 'node' ? ', no thread support' : ' and no node: module'}`, async () => {
    const m = await bundled(runtime, false);
    expect(inputs(m).filter((f) => GROUP.test(f) || WS.test(f))).toEqual([]);
    if (runtime !== 'node') expect(externalImports(m)).toEqual([]);
    else {
      expect(inputs(m).filter((f) => THREADS.test(f))).toEqual([]);
      expect(nodeImports(m).filter((p) => THREAD_MODULES.includes(p))).toEqual([]);
      expect(nodeImports(m)).toEqual(['node:http']);
    }
  });

  it(`with processGroup()${runtime === 'node' ? ', webSockets and threads' : ''} passed in, holds them`, async () => {
    const m = await bundled(runtime, true);
    expect(inputs(m).filter((f) => GROUP.test(f)).length).toBe(2); // the shared group code and the runtime's own
    expect(inputs(m).some((f) => WS.test(f))).toBe(runtime === 'node');
    expect(nodeImports(m)).toContain('node:child_process');
    if (runtime === 'node') expect(nodeImports(m)).toContain('node:worker_threads');
  });
});

describe('the two-route app bundled for Workers', () => {
  it('holds no process group, no ws and no node: module', async () => {
    const { metafile } = await bundleOf({
      ...WORKERS,
      conditions: [...WORKERS.conditions],
      mainFields: [...WORKERS.mainFields],
      entryPoints: ['bench/size/rove.ts'],
      outfile: 'bundle.js',
    });
    expect(inputs(metafile).filter((f) => GROUP.test(f) || WS.test(f))).toEqual([]);
    expect(externalImports(metafile)).toEqual([]);
  });
});
