// The two-route Rove app (bench/size/rove.ts) on Bun, as examples/hello/bun.ts serves it.
import { serve } from 'rove/bun';
import app from '../../size/rove.ts';

serve(app, { port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1' });
