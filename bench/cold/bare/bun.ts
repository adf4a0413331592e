// The two routes on bare Bun.serve.
import { handle } from './handler.ts';

Bun.serve({ port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1', fetch: handle });
