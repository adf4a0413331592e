// Bun: npm run uploads:bun. Bun refuses bodies over 128 MiB by itself: maxRequestBodySize raises it.
import { serve } from 'rove/bun';
import { createUploadsApp } from './app.ts';
import { storeFrom } from './config.ts';
import { diskStore } from './disk-store.ts';

const store = storeFrom(Bun.env, diskStore);
serve(createUploadsApp({ store: () => store }), {
  port: Number(Bun.env.PORT ?? 8000),
  hostname: Bun.env.HOST ?? '127.0.0.1',
  maxRequestBodySize: 4 * 1024 * 1024 * 1024,
});
