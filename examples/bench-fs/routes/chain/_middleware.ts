// /chain: the five middleware layers of the bench app, in order, before routes/chain/index.ts.

import { decodeJwtPayload, RateLimiter, RingLog, requestId } from '../../../../bench/shared/chain.ts';
import { POWERED_BY } from '../../../../bench/shared/fixtures.ts';
import type { Context, Next } from '../../../../src/index.ts';

export type ChainEnv = { Variables: { requestId: string; claims: Record<string, unknown> } };
type C = Context<ChainEnv>;

const log = new RingLog();
const limiter = new RateLimiter();

export default [
  (c: C, next: Next) => {
    const id = requestId(c.req.header('x-request-id'));
    c.set('requestId', id);
    c.header('x-request-id', id);
    return next();
  },
  (c: C, next: Next) => {
    log.push({ t: Date.now(), method: c.req.method, path: c.path, id: c.get('requestId') });
    return next();
  },
  (c: C, next: Next) => {
    const claims = decodeJwtPayload(c.req.header('authorization'));
    if (!claims) return c.json({ title: 'Unauthorized', status: 401 }, 401);
    c.set('claims', claims);
    return next();
  },
  (c: C, next: Next) => {
    if (!limiter.allow(String(c.get('claims').sub), Date.now())) return c.json({ title: 'Too Many Requests', status: 429 }, 429);
    return next();
  },
  (c: C, next: Next) => {
    c.header('x-powered-by', POWERED_BY);
    return next();
  },
];
