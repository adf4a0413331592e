// The two-route Rove app (bench/size/rove.ts) on Deno, as examples/hello/deno.ts serves it.
import { serve } from 'rove/deno';
import app from '../../size/rove.ts';

serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
