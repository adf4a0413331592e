// A Redis lock for the schedule when REDIS_URL is set (Node and Bun): two servers, one run per tick.
import type { TaskLock } from 'rove/tasks';
import { redisLock } from 'rove/tasks';

/** The lock for `url`, or none without one. */
export async function lockFrom(url: string | undefined): Promise<TaskLock | undefined> {
  if (!url) return undefined;
  const { createClient } = await import('redis');
  const client = await createClient({ url }).connect();
  return redisLock(client);
}
