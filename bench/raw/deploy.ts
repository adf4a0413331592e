// What Deno Deploy runs: `deno serve` of a module exporting { fetch }.

import { type OpenFile, withAppLayer } from './app-layer.ts';
import { dbRoutesFromEnv } from './db.ts';
import { handle } from './handler.ts';

const open: OpenFile = async (path) => {
  const info = await Deno.stat(path).catch(() => null);
  if (!info?.isFile) return null;
  return { size: info.size, mtimeMs: info.mtime?.getTime() ?? 0, body: async () => (await Deno.open(path)).readable };
};

export default { fetch: dbRoutesFromEnv(withAppLayer(handle, open), (n) => Deno.env.get(n)) };
