import { connectFromUrl } from '../../dev/resp.ts';
import { type OpenFile, withAppLayer } from './app-layer.ts';
import { dbRoutesFromEnv } from './db.ts';
import { handle } from './handler.ts';
import { withRedisSession } from './redis.ts';

const open: OpenFile = async (path) => {
  const info = await Deno.stat(path).catch(() => null);
  if (!info?.isFile) return null;
  return { size: info.size, mtimeMs: info.mtime?.getTime() ?? 0, body: async () => (await Deno.open(path)).readable };
};

Deno.serve(
  { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' },
  withRedisSession(
    dbRoutesFromEnv(withAppLayer(handle, open), (n) => Deno.env.get(n)),
    await connectFromUrl(Deno.env.get('REDIS_URL')),
  ),
);
