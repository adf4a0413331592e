// The shared-Redis app under serve({ processes: processGroup(2) }): node:cluster runs two servers on one port,
// each with its own Redis client (this module runs again in every child). Each child names
// itself by pid, so the test can tell which one answered.
import cluster from 'node:cluster';
import { serve } from 'rove/node';
import { processGroup } from 'rove/node/processes';
import { RespClient } from '../../../dev/resp.ts';
import { makeApp } from '../shared/app.ts';

// The primary only starts and watches the children: it serves nothing and needs no client.
const redis = cluster.isPrimary ? (undefined as unknown as RespClient) : await RespClient.connect(Number(process.env.REDIS_PORT));
serve(makeApp(redis, `node:${process.pid}`, process.env.SESSION_SECRET!), {
  port: Number(process.env.PORT ?? 8000),
  hostname: '127.0.0.1',
  processes: processGroup(2),
});
