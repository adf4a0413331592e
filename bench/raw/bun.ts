import { stat } from 'node:fs/promises';
import { connectFromUrl } from '../../dev/resp.ts';
import { type OpenFile, withAppLayer } from './app-layer.ts';
import { dbRoutesFromEnv } from './db.ts';
import { handle } from './handler.ts';
import { withRedisSession } from './redis.ts';

// Bun.file as the body: Bun sends it with sendfile.
const open: OpenFile = async (path) => {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  return { size: info.size, mtimeMs: info.mtimeMs, body: () => Bun.file(path) };
};

Bun.serve({
  port: Number(process.env.PORT ?? 8000),
  hostname: process.env.HOST ?? '127.0.0.1',
  fetch: withRedisSession(
    dbRoutesFromEnv(withAppLayer(handle, open), (n) => process.env[n]),
    await connectFromUrl(process.env.REDIS_URL),
  ),
});
