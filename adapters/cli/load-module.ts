// How the CLI's commands that read an app (openapi, crons) import the user's module.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Import a module by path; a .ts one through tsx when the runtime cannot load it itself. */
export async function loadModule(file: string, cwd: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(resolve(cwd, file)).href;
  try {
    return await import(url);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !/\.[mc]?tsx?$/.test(file)) throw error;
    let api: string;
    try {
      // require.resolve gives tsx's CommonJS build (index.cjs); its ES module build (index.mjs) sits beside it.
      const cjs = createRequire(join(cwd, 'package.json')).resolve('tsx/esm/api');
      const mjs = cjs.replace(/\.cjs$/, '.mjs');
      api = existsSync(mjs) ? mjs : cjs;
    } catch {
      throw new Error(`${file} is TypeScript, which this Node cannot load: install tsx, or run under Bun, Deno or Node 22.18+`);
    }
    const tsx = (await import(pathToFileURL(api).href)) as { register: () => unknown };
    tsx.register();
    return await import(`${url}?tsx`); // another URL: Node keeps the failed import of the first
  }
}
