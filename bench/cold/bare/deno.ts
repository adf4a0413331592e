// The two routes on bare Deno.serve.
import { handle } from './handler.ts';

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' }, handle);
