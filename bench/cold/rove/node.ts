// The two-route Rove app (bench/size/rove.ts) on Node, as examples/hello/node.ts serves it.
import { serve } from 'rove/node';
import app from '../../size/rove.ts';

serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
