// The two-route Hono app (bench/size/hono.ts) as a Workers module: the app is the { fetch } export.
import app from '../../size/hono.ts';

export default app;
